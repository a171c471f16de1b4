//! JSON ↔ `google.protobuf.Struct`/`Value`, and page tokens: the wire
//! conversions every service needs at its edge.

use prost_types::value::Kind;
use serde_json::{Map, Number, Value};

/// A JSON object as a `Struct`; other JSON values are wrapped under `value`.
pub fn json_to_struct(value: &Value) -> prost_types::Struct {
    match value {
        Value::Object(map) => prost_types::Struct {
            fields: map
                .iter()
                .map(|(key, value)| (key.clone(), json_to_value(value)))
                .collect(),
        },
        other => prost_types::Struct {
            fields: [("value".to_owned(), json_to_value(other))]
                .into_iter()
                .collect(),
        },
    }
}

/// A JSON value as a protobuf `Value`.
pub fn json_to_value(value: &Value) -> prost_types::Value {
    let kind = match value {
        Value::Null => Kind::NullValue(0),
        Value::Bool(value) => Kind::BoolValue(*value),
        Value::Number(number) => Kind::NumberValue(number.as_f64().unwrap_or(0.0)),
        Value::String(text) => Kind::StringValue(text.clone()),
        Value::Array(items) => Kind::ListValue(prost_types::ListValue {
            values: items.iter().map(json_to_value).collect(),
        }),
        Value::Object(_) => Kind::StructValue(json_to_struct(value)),
    };
    prost_types::Value { kind: Some(kind) }
}

/// A `Struct` as a JSON object.
pub fn struct_to_json(value: &prost_types::Struct) -> Map<String, Value> {
    value
        .fields
        .iter()
        .map(|(key, value)| (key.clone(), value_to_json(value)))
        .collect()
}

/// A protobuf `Value` as JSON; whole numbers become integers.
pub fn value_to_json(value: &prost_types::Value) -> Value {
    match &value.kind {
        None | Some(Kind::NullValue(_)) => Value::Null,
        Some(Kind::BoolValue(value)) => Value::Bool(*value),
        Some(Kind::NumberValue(number)) => {
            if number.fract() == 0.0 && number.abs() < 9.0e15 {
                Value::Number((*number as i64).into())
            } else {
                Number::from_f64(*number).map_or(Value::Null, Value::Number)
            }
        }
        Some(Kind::StringValue(text)) => Value::String(text.clone()),
        Some(Kind::ListValue(list)) => {
            Value::Array(list.values.iter().map(value_to_json).collect())
        }
        Some(Kind::StructValue(fields)) => Value::Object(struct_to_json(fields)),
    }
}

/// Whether every number in `value` is finite. JSON has no NaN or infinity, so a
/// non-finite number would be stored as `null` and read back as something else;
/// services refuse such values at their edge. Depth is bounded by prost's
/// decoding recursion limit.
pub fn is_finite(value: &prost_types::Value) -> bool {
    match &value.kind {
        Some(Kind::NumberValue(number)) => number.is_finite(),
        Some(Kind::ListValue(list)) => list.values.iter().all(is_finite),
        Some(Kind::StructValue(fields)) => fields.fields.values().all(is_finite),
        _ => true,
    }
}

/// Default page size when a request says 0.
pub const DEFAULT_PAGE_SIZE: usize = 50;
/// Largest page size honoured.
pub const MAX_PAGE_SIZE: usize = 1000;

/// A page request decoded from `page_size` and `page_token`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageWindow {
    /// Items to skip.
    pub offset: usize,
    /// Items to return.
    pub size: usize,
}

/// The items a page holds for `page_size` (0: the default; at most the
/// largest honoured), for lists that seal their own tokens.
pub fn page_size(page_size: i32) -> Result<usize, String> {
    match page_size {
        ..0 => Err("page_size must not be negative".into()),
        0 => Ok(DEFAULT_PAGE_SIZE),
        size => Ok((size as usize).min(MAX_PAGE_SIZE)),
    }
}

/// Decodes `page_size`/`page_token` of the list `scope` (its tenant and
/// name, e.g. `acme skills`); a token this deployment did not issue for that
/// list is refused.
pub fn page_window(page_size: i32, page_token: &str, scope: &str) -> Result<PageWindow, String> {
    let size = self::page_size(page_size)?;
    let offset = if page_token.is_empty() {
        0
    } else {
        open_offset(page_token, scope)
            .ok_or_else(|| "page_token was not issued by this server for this list".to_owned())?
    };
    Ok(PageWindow { offset, size })
}

/// The token of the page after `window` of `scope` when `total` items exist;
/// empty on the last page.
pub fn next_page_token(window: PageWindow, total: usize, scope: &str) -> String {
    let next = window.offset + window.size;
    if next < total {
        seal_offset(next, scope)
    } else {
        String::new()
    }
}

// A page token is its offset sealed: a random nonce, the offset masked with
// a pad keyed (the audit secret) by the nonce and the list, and a tag over
// all of it. It reads as noise and serves only the list it was issued for —
// the job lists' tokens (adas-jobs' page.rs) are sealed the same way.
fn seal_offset(offset: usize, scope: &str) -> String {
    let mut nonce = [0u8; 8];
    getrandom::fill(&mut nonce).expect("the OS random source");
    let pad = adas_dia::digest::keyed(&[b"page-pad\0", &nonce, scope.as_bytes()]);
    let mut masked = (offset as u64).to_be_bytes();
    for (byte, mask) in masked.iter_mut().zip(pad) {
        *byte ^= mask;
    }
    let tag = adas_dia::digest::keyed(&[b"page-tag\0", &nonce, &masked, scope.as_bytes()]);
    format!(
        "s{}{}{}",
        hex::encode(nonce),
        hex::encode(masked),
        hex::encode(&tag[..12])
    )
}

fn open_offset(token: &str, scope: &str) -> Option<usize> {
    let bytes = hex::decode(token.strip_prefix('s')?).ok()?;
    if bytes.len() != 8 + 8 + 12 {
        return None;
    }
    let (nonce, rest) = bytes.split_at(8);
    let (masked, tag) = rest.split_at(8);
    let expected = adas_dia::digest::keyed(&[b"page-tag\0", nonce, masked, scope.as_bytes()]);
    if expected[..12] != *tag {
        return None;
    }
    let pad = adas_dia::digest::keyed(&[b"page-pad\0", nonce, scope.as_bytes()]);
    let mut offset = [0u8; 8];
    for ((out, byte), mask) in offset.iter_mut().zip(masked).zip(pad) {
        *out = byte ^ mask;
    }
    usize::try_from(u64::from_be_bytes(offset)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_round_trips_through_struct() {
        let value = json!({"a": 1, "b": [true, null, "x", 2.5], "c": {"d": "e"}});
        let back = Value::Object(struct_to_json(&json_to_struct(&value)));
        assert_eq!(back, value);
    }

    #[test]
    fn page_tokens_are_sealed_for_their_list() {
        assert_eq!(
            page_window(0, "", "acme skills").unwrap(),
            PageWindow {
                offset: 0,
                size: DEFAULT_PAGE_SIZE
            }
        );
        let token = next_page_token(
            PageWindow {
                offset: 0,
                size: 10,
            },
            30,
            "acme skills",
        );
        // Nonce, masked offset, tag: noise of a fixed length, no offset in sight.
        assert!(
            token.starts_with('s') && token.len() == 1 + 2 * (8 + 8 + 12),
            "{token}"
        );
        assert_eq!(
            page_window(5000, &token, "acme skills").unwrap(),
            PageWindow {
                offset: 10,
                size: MAX_PAGE_SIZE
            }
        );
        // Two tokens for one place say nothing about each other.
        assert_ne!(
            token,
            next_page_token(
                PageWindow {
                    offset: 0,
                    size: 10
                },
                30,
                "acme skills"
            )
        );
        // Another list's, another tenant's, a plain offset, a forged one: refused.
        assert!(page_window(1, &token, "globex skills").is_err());
        assert!(page_window(1, &token, "acme templates").is_err());
        assert!(page_window(1, "o10", "acme skills").is_err());
        let mut forged = token.clone().into_bytes();
        let last = forged.len() - 1;
        forged[last] = if forged[last] == b'0' { b'1' } else { b'0' };
        assert!(page_window(1, &String::from_utf8(forged).unwrap(), "acme skills").is_err());
        assert!(page_window(1, "garbage", "acme skills").is_err());
        assert!(page_window(-1, "", "acme skills").is_err());
        assert_eq!(
            next_page_token(PageWindow { offset: 2, size: 2 }, 3, "acme skills"),
            ""
        );
    }
}
