//! Marsaglia's xorshift64 (shifts 13, 7, 17; Marsaglia 2003): the small
//! generator of the files that tests and benches make up.

/// The xorshift64 stream of `seed` (not 0): each call, the next state.
pub fn xorshift64(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
