//! Schema compatibility: formats, changes, the rules table and verdicts under a strategy.
