// A form of flat fields, with an optional number and a choice.

use beam_mcp::{Context, Elicit, Elicited};

#[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
enum Plan {
    Free,
    Paid,
}

#[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Signup {
    name: String,
    seats: Option<u32>,
    plan: Plan,
    newsletter: bool,
}

/// Signs the user up.
#[beam_mcp::tool]
async fn sign_up(ctx: Context) -> String {
    match ctx.elicit::<Signup>("Sign up").await {
        Ok(Elicited::Accepted(s)) => format!("{} on {} seats", s.name, s.seats.unwrap_or(1)),
        Ok(_) => "not now".into(),
        Err(e) => e.to_string(),
    }
}

fn main() {
    let _ = sign_up::DEF;
}
