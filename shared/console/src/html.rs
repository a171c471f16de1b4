//! HTML building: one escape for every dynamic string, the page frame, and
//! the renderings of the contract's values (calls, JSON, statuses).

use std::fmt::Write;

use serde_json::Value as Json;

/// Text made safe for HTML content and quoted attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole page: `title` (text) and `body` (already HTML), with `data`
/// attributes (escaped) on `<body>` for the page's script.
pub fn page(title: &str, signed_in: bool, data: &[(&str, String)], body: &str) -> String {
    let mut attributes = String::new();
    for (name, value) in data {
        let _ = write!(attributes, " data-{name}=\"{}\"", esc(value));
    }
    let nav = if signed_in {
        "<nav><a href=\"/jobs\">Jobs</a><a href=\"/inbox\">Inbox</a>\
         <a href=\"/skills\">Skills</a><a href=\"/solutions\">Solutions</a>\
         <form method=\"post\" action=\"/logout\"><button>Sign out</button></form></nav>"
    } else {
        ""
    };
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{} · ADAS</title><link rel=\"stylesheet\" href=\"/static/console.css\">\
         <script src=\"/static/console.js\" defer></script></head>\
         <body{attributes}><header><a class=\"brand\" href=\"/\">ADAS</a>{nav}</header>\
         <main>{body}</main></body></html>",
        esc(title)
    )
}

/// A call as the user reads it: `process_refund(amount=700, order_id="ORD-1")`.
pub fn call_text(tool: &str, arguments: &serde_json::Map<String, Json>) -> String {
    let arguments: Vec<String> = arguments
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    format!("{tool}({})", arguments.join(", "))
}

/// JSON for people, in a `<pre>`.
pub fn json_block(value: &Json) -> String {
    format!(
        "<pre class=\"json\">{}</pre>",
        esc(&serde_json::to_string_pretty(value).unwrap_or_default())
    )
}

/// A wire enum's name without its prefix, lower case: `JOB_STATUS_PAUSED` → `paused`.
pub fn enum_label(name: &str, prefix: &str) -> String {
    name.trim_start_matches(prefix).to_ascii_lowercase()
}

/// A timestamp as RFC 3339 (UTC, seconds, a space for the `T`).
pub fn time(timestamp: Option<&prost_types::Timestamp>) -> String {
    timestamp
        .and_then(|timestamp| jiff::Timestamp::from_second(timestamp.seconds).ok())
        .map_or_else(String::new, |stamp| {
            stamp.strftime("%Y-%m-%d %H:%M:%S").to_string()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_data_stays_text() {
        assert_eq!(
            esc(r#"<script>alert("x")</script>&'"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"
        );
        let page = page("<t>", true, &[("v", "\"><x".into())], "");
        assert!(page.contains("<title>&lt;t&gt; · ADAS</title>"));
        assert!(page.contains("data-v=\"&quot;&gt;&lt;x\""));
    }

    #[test]
    fn calls_read_as_calls() {
        let arguments = serde_json::json!({"amount": 700, "order_id": "ORD-1"});
        assert_eq!(
            call_text("process_refund", arguments.as_object().unwrap()),
            r#"process_refund(amount=700, order_id="ORD-1")"#
        );
    }

    #[test]
    fn times_are_utc_dates() {
        let at = prost_types::Timestamp {
            seconds: 1_795_000_000,
            nanos: 0,
        };
        assert_eq!(time(Some(&at)), "2026-11-18 11:06:40");
        assert_eq!(time(None), "");
    }
}
