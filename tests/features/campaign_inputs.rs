//! Every bad input of the `campaign` example: reported with its place,
//! nothing changed, no panic.
#![cfg(all(feature = "scheduler", feature = "serde"))]
