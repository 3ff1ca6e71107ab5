//! End-to-end tests: the built example binary, driven through real pipes.

mod stdio_weather;
