//! The SQL functions' integration tests, as one binary (`DataFusion` is
//! linked once, not once per file).

mod devices;
mod meta_corr;
mod options_delivery;
