//! A minimal HTTP/1.1 client over one keep-alive socket: for the tests
//! that need a real listener (the load and kill test, the browser's
//! WebDriver). The route tests go through `tower::ServiceExt::oneshot`
//! (`super::Client`).
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

pub use super::{Http, Outgoing, Response};

/// A client with its own cookie jar over one keep-alive connection.
pub struct Client {
    pub addr: SocketAddr,
    stream: Option<BufReader<TcpStream>>,
    pub cookies: HashMap<String, String>,
    pub extra: Vec<(String, String)>,
}

impl Client {
    pub fn new(addr: SocketAddr) -> Self {
        Self {
            addr,
            stream: None,
            cookies: HashMap::new(),
            extra: Vec::new(),
        }
    }

    fn connect(&mut self) -> std::io::Result<&mut BufReader<TcpStream>> {
        if self.stream.is_none() {
            let s = TcpStream::connect_timeout(&self.addr, Duration::from_secs(5))?;
            s.set_read_timeout(Some(Duration::from_secs(30)))?;
            s.set_nodelay(true)?;
            self.stream = Some(BufReader::new(s));
        }
        Ok(self.stream.as_mut().unwrap())
    }
}

impl Http for Client {
    fn jar(&self) -> (&HashMap<String, String>, &[(String, String)]) {
        (&self.cookies, &self.extra)
    }

    fn exchange(&mut self, r: Outgoing<'_>) -> std::io::Result<Response> {
        let mut req = format!(
            "{} {} HTTP/1.1\r\nHost: {}\r\n",
            r.method, r.path, self.addr
        );
        for (k, v) in &r.headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        if r.method == "POST" || r.method == "DELETE" {
            req.push_str(&format!("Content-Length: {}\r\n", r.body.len()));
        }
        req.push_str("\r\n");
        req.push_str(r.body);
        let r = self.send(req.as_bytes());
        if r.is_err() {
            // The server may have closed an idle connection: once more.
            self.stream = None;
            return self.send(req.as_bytes());
        }
        r
    }
}

impl Client {
    /// One exchange: the status line, the headers, a body of Content-Length
    /// bytes (every response of the server and of ChromeDriver has one).
    fn send(&mut self, req: &[u8]) -> std::io::Result<Response> {
        let s = self.connect()?;
        s.get_mut().write_all(req)?;
        let mut line = String::new();
        if s.read_line(&mut line)? == 0 {
            return Err(std::io::Error::other("connection closed"));
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let mut headers = Vec::new();
        loop {
            line.clear();
            s.read_line(&mut line)?;
            match line.trim_end().split_once(':') {
                Some((k, v)) => headers.push((k.trim().to_owned(), v.trim().to_owned())),
                None => break,
            }
        }
        let r = Response {
            status,
            headers,
            body: String::new(),
        };
        let mut body = vec![
            0u8;
            r.header("content-length")
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        ];
        s.read_exact(&mut body)?;
        if r.header("connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"))
        {
            self.stream = None;
        }
        let r = Response {
            body: String::from_utf8_lossy(&body).into_owned(),
            ..r
        };
        r.keep_cookies(&mut self.cookies);
        Ok(r)
    }
}
