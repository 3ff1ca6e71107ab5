// `#[derive(Elicit)]` alone: a form is also read with serde and described by schemars, so the
// missing derives are one error each on the form and on the choice, naming the fix.

#[derive(beam_mcp::Elicit)]
enum Seat {
    Window,
    Aisle,
}

#[derive(beam_mcp::Elicit)]
struct Booking {
    name: String,
    seat: Seat,
}

fn main() {}
