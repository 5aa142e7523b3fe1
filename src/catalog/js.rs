//! JavaScript's comparisons and conversions of JSON values, as the SDK's sorts and lookups
//! apply them to front matter values that need not be text (`version: 1`, `version:` null).

use std::borrow::Cow;
use std::cmp::Ordering;

use serde_json::Value;

use super::version::cmp_code_units;
use crate::json_text::js_number;

/// JavaScript `===` on JSON values: objects and arrays are never equal (distinct references).
pub(crate) fn strict_eq(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(Value::Null), Some(Value::Null)) => true,
        (Some(Value::Bool(x)), Some(Value::Bool(y))) => x == y,
        (Some(Value::Number(x)), Some(Value::Number(y))) => x.as_f64() == y.as_f64(),
        (Some(Value::String(x)), Some(Value::String(y))) => x == y,
        _ => false,
    }
}

/// JavaScript `String(value)`.
pub(crate) fn js_to_string(value: Option<&Value>) -> Cow<'_, str> {
    match value {
        None => Cow::Borrowed("undefined"),
        Some(Value::Null) => Cow::Borrowed("null"),
        Some(Value::Bool(b)) => Cow::Borrowed(if *b { "true" } else { "false" }),
        Some(Value::Number(n)) => Cow::Owned(js_number(n.as_f64().unwrap_or(f64::NAN))),
        Some(Value::String(s)) => Cow::Borrowed(s),
        Some(Value::Array(items)) => Cow::Owned(
            items
                .iter()
                .map(|v| match v {
                    Value::Null => Cow::Borrowed(""),
                    v => js_to_string(Some(v)),
                })
                .collect::<Vec<_>>()
                .join(","),
        ),
        Some(Value::Object(_)) => Cow::Borrowed("[object Object]"),
    }
}

/// JavaScript `ToNumber` of a primitive string.
fn string_to_number(s: &str) -> f64 {
    let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if t.is_empty() {
        return 0.0;
    }
    match t {
        "Infinity" | "+Infinity" => return f64::INFINITY,
        "-Infinity" => return f64::NEG_INFINITY,
        _ => {}
    }
    for (prefix, radix) in [
        ("0x", 16),
        ("0X", 16),
        ("0o", 8),
        ("0O", 8),
        ("0b", 2),
        ("0B", 2),
    ] {
        if let Some(digits) = t.strip_prefix(prefix) {
            return u128::from_str_radix(digits, radix).map_or(f64::NAN, |v| v as f64);
        }
    }
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let digits_ok = mantissa.bytes().filter(|b| *b == b'.').count() <= 1
        && mantissa.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && mantissa.bytes().any(|b| b.is_ascii_digit());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    });
    if digits_ok && exponent_ok {
        t.parse().unwrap_or(f64::NAN)
    } else {
        f64::NAN
    }
}

/// JavaScript `a < b` (abstract relational comparison) on JSON values.
pub(crate) fn js_less(a: Option<&Value>, b: Option<&Value>) -> bool {
    /// `ToPrimitive`: a string (`Ok`) or already a number (`Err`).
    fn prim(v: Option<&Value>) -> Result<Cow<'_, str>, f64> {
        match v {
            None => Err(f64::NAN),
            Some(Value::Null) => Err(0.0),
            Some(Value::Bool(b)) => Err(f64::from(u8::from(*b))),
            Some(Value::Number(n)) => Err(n.as_f64().unwrap_or(f64::NAN)),
            Some(other) => Ok(js_to_string(Some(other))),
        }
    }
    match (prim(a), prim(b)) {
        (Ok(x), Ok(y)) => cmp_code_units(&x, &y) == Ordering::Less,
        (x, y) => {
            let num = |p: Result<Cow<'_, str>, f64>| p.map_or_else(|n| n, |s| string_to_number(&s));
            num(x) < num(y)
        }
    }
}

/// The SDK's `compareText`: `a < b ? -1 : a > b ? 1 : 0`.
pub(crate) fn compare_text(a: Option<&Value>, b: Option<&Value>) -> Ordering {
    if let (Some(Value::String(x)), Some(Value::String(y))) = (a, b) {
        return cmp_code_units(x, y); // the common case, without the coercions
    }
    if js_less(a, b) {
        Ordering::Less
    } else if js_less(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_comparisons() {
        let s = |x: &str| Value::from(x);
        assert_eq!(
            compare_text(Some(&s("Zeta")), Some(&s("alpha"))),
            Ordering::Less
        );
        assert_eq!(
            compare_text(Some(&Value::from(0)), Some(&s("1.0.0"))),
            Ordering::Equal
        );
        assert_eq!(
            compare_text(Some(&Value::from(1)), Some(&s("0.5"))),
            Ordering::Greater
        );
        assert!(strict_eq(Some(&Value::Null), Some(&Value::Null)));
        assert!(!strict_eq(None, Some(&Value::Null)));
    }
}
