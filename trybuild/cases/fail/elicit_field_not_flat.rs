// A form holds flat fields only: a list and a nested struct are refused, each on its own field.

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Address {
    street: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema, beam_mcp::Elicit)]
struct Signup {
    name: String,
    tags: Vec<String>,
    address: Address,
}

fn main() {}
