//! End-to-end tests: the built example binary, driven through real pipes.

mod connectome;
mod conversation;
mod memory;
mod shutdown;
mod stdio_weather;
mod subscriptions;
