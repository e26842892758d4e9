//! `serve`: the campaign as an annotation server (cargo feature `serve`,
//! off by default): the crate `adaptive-comp-metrics-serve` does the work.

use std::path::{Path, PathBuf};

#[cfg(feature = "serve")]
use super::state::StateFile as _;
use super::{Env, Failure, Outcome};

/// The event log's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormatArg {
    /// One sentence per line, for a person.
    Text,
    /// One JSON object per line (ts, event, its fields, message).
    Json,
}

/// How a vote reaches the disk before it is acknowledged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DurabilityArg {
    /// Synced to the disk: survives a killed process and a power loss.
    Full,
    /// Handed to the operating system: survives a killed process only.
    Normal,
}

/// Serves the campaign to annotators in their browsers, with leases, automatic ballots and
/// the researcher's dashboard.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
A JSON state (from acm campaign init) is turned into a store at the first start: one SQLite file
(--store, by default the state's name with .db) holding the state and every answer, exclusion and
ballot since. Give the store to status, export and rank from then on (also while it is served);
the JSON file is left as it was. Restarting on the store resumes where the server stopped, even
after kill -9. The page's question, instructions, tie label and completion code or URL are set at
init (acm campaign init --question … --tie-label … --completion-code …), and the code for those who
stop before their quota (--partial-completion-code; none by default).

Annotators open the study URL with their participant id (Prolific: append
?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}; MTurk:
workerId, assignmentId) or an invitation link (--invite N, or from the dashboard). The server
prints the dashboard's address with its token when it starts; events go to stderr.

Example:
  acm campaign init --state s.json --items items.csv --seed 7 --controls controls.csv \\
      --question \"Which pair of words is more related?\" --completion-code C0DE
  acm campaign serve --state s.json --quota 40 --min-accuracy 0.7
  acm campaign status --state s.db")]
pub struct ServeArgs {
    /// The campaign: a JSON state (made into a store at the first start) or a store.
    #[arg(long)]
    pub state: String,
    /// The store made from a JSON state [default: the state's name with .db].
    #[arg(long)]
    pub store: Option<String>,
    /// The address to listen on (another host than 127.0.0.1 exposes the server).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: std::net::SocketAddr,
    /// Tasks an annotator may answer per ballot (then the end screen).
    #[arg(long)]
    pub quota: Option<usize>,
    /// Seconds a task handed out stays reserved for its annotator.
    #[arg(long, default_value_t = 600)]
    pub lease: u64,
    /// Exclude annotators whose accuracy on control pairs falls below this.
    #[arg(long, value_parser = crate::params::unit)]
    pub min_accuracy: Option<f64>,
    /// Control answers needed before an annotator's accuracy is judged.
    #[arg(long, default_value_t = 5, requires = "min_accuracy")]
    pub min_controls: u64,
    /// URL parameter with the participant id, tried in order (repeatable)
    /// [default: PROLIFIC_PID, workerId].
    #[arg(long = "worker-param", value_name = "NAME")]
    pub worker_params: Vec<String>,
    /// URL parameter recorded with the annotator (repeatable)
    /// [default: STUDY_ID, SESSION_ID, assignmentId, hitId].
    #[arg(long = "record-param", value_name = "NAME")]
    pub record_params: Vec<String>,
    /// Admit annotators by invitation link only.
    #[arg(long)]
    pub invitations_only: bool,
    /// Make N invitation links at start (listed on the dashboard).
    #[arg(long, value_name = "N")]
    pub invite: Option<usize>,
    /// A file holding the dashboard's token [default: the store's, printed at start].
    #[arg(long, value_name = "FILE")]
    pub admin_token_file: Option<String>,
    /// The event log on stderr.
    #[arg(long, value_enum, default_value_t = LogFormatArg::Text)]
    pub format: LogFormatArg,
    /// How a vote reaches the disk before the page acknowledges it.
    #[arg(long, value_enum, default_value_t = DurabilityArg::Full)]
    pub durability: DurabilityArg,
    /// Cookies only over HTTPS (behind a TLS proxy).
    #[arg(long)]
    pub secure_cookies: bool,
    /// Who may show the page in a frame (CSP frame-ancestors), e.g. https://*.mturk.com.
    #[arg(long, default_value = "'none'")]
    pub frame_ancestors: String,
    /// New participant ids admitted per minute, in bursts of as many (0: no limit); past it the
    /// page asks to wait a moment and reloads itself.
    #[arg(long, value_name = "N", default_value_t = 120)]
    pub new_participants_per_minute: u32,
}

/// The store beside a JSON state: `s.json` → `s.db`, `s` → `s.db`.
fn default_store(state: &str) -> PathBuf {
    let p = Path::new(state);
    if p.extension().is_some_and(|e| e == "json") {
        p.with_extension("db")
    } else {
        PathBuf::from(format!("{state}.db"))
    }
}

/// `serve`: makes the store from a JSON state if need be, and serves it
/// until Ctrl-C or SIGTERM.
///
/// # Errors
/// A bad state or store, a store served by another process, an address
/// that cannot be bound, a store failure while serving.
#[cfg(feature = "serve")]
pub fn serve(args: &ServeArgs, env: &mut Env<'_>) -> Outcome {
    use adaptive_comp_metrics::ballot::ExclusionRule;
    use adaptive_comp_metrics_serve::{Durability, LogFormat, Options, Store};

    let fail = |path: &Path, e: adaptive_comp_metrics_serve::ServeError| -> Failure {
        let text = e.to_string();
        let prefix = format!("{}: ", path.display());
        Failure::about(path, text.strip_prefix(&prefix).unwrap_or(&text))
    };
    let store: PathBuf = if super::state::is_store(&args.state) {
        if args.store.is_some() {
            return Err(Failure::usage(format!(
                "--store is for a JSON state; {} is a store already",
                args.state
            )));
        }
        PathBuf::from(&args.state)
    } else {
        let state = super::state::State::load(&args.state)?;
        let target = args
            .store
            .as_deref()
            .map_or_else(|| default_store(&args.state), PathBuf::from);
        if target.exists() {
            if !Store::is_store(&target) {
                return Err(Failure::about(
                    &target,
                    "exists and is not a campaign store",
                ));
            }
            let tag = Store::tag(&target).map_err(|e| fail(&target, e))?;
            if tag != state.tag {
                return Err(Failure::about(
                    &target,
                    format!(
                        "holds another campaign ({tag}) than {} ({})",
                        args.state, state.tag
                    ),
                ));
            }
            env.note(format_args!(
                "note: serving {} (made from {} earlier; that file is left as it was)",
                target.display(),
                args.state
            ))?;
        } else {
            // No command may change the JSON state meanwhile.
            let _lock = super::files::lock(&args.state)?;
            Store::create(&target, &state.to_bytes()?).map_err(|e| fail(&target, e))?;
            env.note(format_args!(
                "note: made {} from {}: give --state {} to status, export and rank from now on \
                 ({} stays as the campaign was before serving)",
                target.display(),
                args.state,
                target.display(),
                args.state
            ))?;
        }
        target
    };
    let admin_token = match args.admin_token_file.as_deref() {
        Some(p) => Some(
            std::fs::read_to_string(p)
                .map_err(|e| Failure::about(p, format!("cannot read: {e}")))?
                .trim()
                .to_owned(),
        ),
        None => None,
    };
    let exclusion = match args.min_accuracy {
        Some(a) => Some(
            ExclusionRule::new(a, args.min_controls).map_err(|e| Failure::usage(e.to_string()))?,
        ),
        None => None,
    };
    let defaults = Options::default();
    let options = Options {
        addr: args.addr,
        admin_token,
        lease: std::time::Duration::from_secs(args.lease),
        quota: args.quota,
        exclusion,
        worker_params: if args.worker_params.is_empty() {
            defaults.worker_params.clone()
        } else {
            args.worker_params.clone()
        },
        record_params: if args.record_params.is_empty() {
            defaults.record_params.clone()
        } else {
            args.record_params.clone()
        },
        invitations_only: args.invitations_only,
        invite: (1..=args.invite.unwrap_or(0))
            .map(|i| format!("invitee-{i}"))
            .collect(),
        log_format: match args.format {
            LogFormatArg::Text => LogFormat::Text,
            LogFormatArg::Json => LogFormat::Json,
        },
        durability: match args.durability {
            DurabilityArg::Full => Durability::Full,
            DurabilityArg::Normal => Durability::Normal,
        },
        secure_cookies: args.secure_cookies,
        frame_ancestors: args.frame_ancestors.clone(),
        new_workers_per_minute: args.new_participants_per_minute,
        ..defaults
    };
    adaptive_comp_metrics_serve::serve(&store, options).map_err(|e| match e {
        adaptive_comp_metrics_serve::ServeError::Option { .. } => Failure::usage(e.to_string()),
        e => fail(&store, e),
    })
}

/// `serve` in an `acm` built without the feature.
///
/// # Errors
/// Always: the feature is missing.
#[cfg(not(feature = "serve"))]
pub fn serve(args: &ServeArgs, _env: &mut Env<'_>) -> Outcome {
    let _ = default_store(&args.state);
    Err(Failure::usage(
        "this acm was built without the serve feature: cargo install --locked --path cli --features serve",
    ))
}
