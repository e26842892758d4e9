//! Options the Python side passes by name (`alternative="less"`,
//! `scheme="first"`, ...): each one a function from the name to the
//! library's value, defined from its table of names by [`named!`].

/// Defines, for each table, `fn name(given: &str) -> PyResult<T>`: the
/// value listed for the name `given`, or a `ValueError` that says what the
/// option is (the string before the type) and lists every name (as
/// [`choice`](crate::convert::choice) words it).
///
/// ```ignore
/// named! {
///     /// Which end of a score scale is the top.
///     pub fn order("order") -> Order {
///         "larger" => Order::LargerIsBetter, "smaller" => Order::SmallerIsBetter,
///     }
/// }
/// ```
macro_rules! named {
    ($(
        $(#[$doc:meta])*
        $vis:vis fn $name:ident($what:literal) -> $t:ty { $($key:literal => $value:expr),+ $(,)? }
    )+) => {$(
        $(#[$doc])*
        $vis fn $name(given: &str) -> pyo3::PyResult<$t> {
            $crate::convert::choice($what, given, &[$(($key, $value)),+])
        }
    )+};
}

pub(crate) use named;
