// An enum in a form is a choice: every variant must be a unit variant.

#[derive(serde::Deserialize, schemars::JsonSchema, beam_mcp::Elicit)]
enum Plan {
    Free,
    Paid(u32),
    Custom { seats: u32 },
}

fn main() {}
