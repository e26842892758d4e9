//! The noisy Bradley–Terry model (placeholder while it is written).

use super::data::Comparisons;
use super::error::{PairwiseError, Result};
use super::fit::Fit;
use super::information::Information;

pub(crate) fn information(_fit: &Fit, _data: &Comparisons) -> Result<Information> {
    Err(PairwiseError::Empty)
}
