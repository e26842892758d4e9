//! The library side of a crowd campaign: task layouts, answers, worker
//! statistics, exclusions, saving and restoring.
#![cfg(feature = "scheduler")]
