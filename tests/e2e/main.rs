//! End-to-end tests: the built example binary, driven through real pipes.

mod conversation;
mod memory;
mod stdio_weather;
mod subscriptions;
