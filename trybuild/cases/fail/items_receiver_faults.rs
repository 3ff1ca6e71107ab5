#[derive(Clone)]
struct Notes;

// Every method's fault at once: `self` by value, `&mut self`, no receiver, and a fault of
// the item itself (no description).
#[beam_mcp::items]
impl Notes {
    /// Takes self.
    #[tool]
    fn by_value(self) -> String {
        String::new()
    }

    /// Takes &mut self.
    #[tool]
    fn by_mut(&mut self) -> String {
        String::new()
    }

    /// Takes no self.
    #[resource("notes://all")]
    fn all() -> String {
        String::new()
    }

    #[prompt]
    fn undocumented(&self) -> String {
        String::new()
    }
}

fn main() {}
