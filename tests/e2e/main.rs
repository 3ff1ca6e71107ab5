//! End-to-end tests: the built example binary, driven through real pipes.

mod conversation;
mod memory;
mod subscriptions;
mod stdio_weather;
