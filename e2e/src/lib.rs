//! adas-e2e: end-to-end tests live in `tests/` (and `python/`); `adas-bench`
//! (`src/bin/adas-bench.rs`) measures the job path against its floor. No library code.
