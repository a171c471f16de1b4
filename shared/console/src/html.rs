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

/// Who a page is shown to: nobody signed in (no navigation), a signed-in
/// browser whose principal is not known here (an error page), or the
/// principal, shown on every page.
#[derive(Debug, Clone, Copy)]
pub enum Who<'a> {
    /// The sign-in page and pages before it.
    Nobody,
    /// Signed in; the page does not name the principal.
    SignedIn,
    /// Signed in as this principal.
    Caller(&'a adas_proto::pb::Caller),
}

/// A whole page: `title` (text) and `body` (already HTML), with `data`
/// attributes (escaped) on `<body>` for the page's script.
pub fn page(title: &str, who: Who<'_>, data: &[(&str, String)], body: &str) -> String {
    let mut attributes = String::new();
    for (name, value) in data {
        let _ = write!(attributes, " data-{name}=\"{}\"", esc(value));
    }
    let nav = match who {
        Who::Nobody => String::new(),
        Who::SignedIn | Who::Caller(_) => format!(
            "<nav><a href=\"/jobs\">Jobs</a><a href=\"/inbox\">Inbox</a>\
             <a href=\"/skills\">Skills</a><a href=\"/solutions\">Solutions</a>{}\
             <form method=\"post\" action=\"/logout\"><button>Sign out</button></form></nav>",
            signed_in_as(who)
        ),
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

/// The principal, its tenant and roles, as the header shows them.
fn signed_in_as(who: Who<'_>) -> String {
    let Who::Caller(caller) = who else {
        return String::new();
    };
    let roles = if caller.dev_mode {
        "dev mode: every role".to_owned()
    } else {
        caller.roles.join(", ")
    };
    format!(
        "<span class=\"who\" title=\"signed in as\"><strong class=\"principal\">{}</strong> \
         <span class=\"tenant\">{}</span> <span class=\"roles\">{}</span></span>",
        esc(&caller.name),
        esc(&caller.tenant),
        esc(&roles)
    )
}

/// The principal a caller is, for the suite's own rules: a console offers
/// only what the suite would allow, decided by the same code.
pub fn principal(caller: &adas_proto::pb::Caller) -> adas_runtime::auth::Principal {
    adas_runtime::auth::Principal {
        name: caller.name.clone(),
        tenant: caller.tenant.clone(),
        roles: caller.roles.clone(),
        claims: std::collections::BTreeMap::new(),
        dev: caller.dev_mode,
    }
}

/// Whether the principal holds `role` (dev mode holds every role).
pub fn holds_role(caller: &adas_proto::pb::Caller, role: &str) -> bool {
    principal(caller).has_role(role)
}

/// The fewest leading characters a table shows of a job id: enough to tell
/// apart every id it lists, never fewer than this.
const SHORT_ID: usize = 12;

/// How many leading characters tell every one of `ids` apart: at least
/// [`SHORT_ID`], the whole id at most. Ids start with their time, so ids of
/// one instant run longer.
pub fn distinct_prefix<'a>(ids: impl IntoIterator<Item = &'a str>) -> usize {
    let mut ids: Vec<&str> = ids.into_iter().collect();
    ids.sort_unstable();
    ids.dedup();
    let common = |a: &str, b: &str| a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    ids.windows(2)
        .map(|pair| common(pair[0], pair[1]) + 1)
        .fold(SHORT_ID, usize::max)
}

/// A job id as a table shows it, linked to `href`: its first `length`
/// characters, the whole id on hover and in a copy button beside the link.
pub fn short_id(id: &str, length: usize, href: &str) -> String {
    let shown = match id.char_indices().nth(length) {
        Some((end, _)) => format!("{}…", &id[..end]),
        None => id.to_owned(),
    };
    format!(
        "<a class=\"id\" href=\"{}\" title=\"{id}\">{}</a>\
         <button type=\"button\" class=\"copy\" data-copy=\"{id}\" title=\"Copy the whole id\">copy</button>",
        esc(href),
        esc(&shown),
        id = esc(id),
    )
}

/// A job's status as a badge (the row it sits in stays uncoloured).
pub fn badge(status: &str) -> String {
    format!("<span class=\"badge {0}\">{0}</span>", esc(status))
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
        let page = page("<t>", Who::SignedIn, &[("v", "\"><x".into())], "");
        assert!(page.contains("<title>&lt;t&gt; · ADAS</title>"));
        assert!(page.contains("data-v=\"&quot;&gt;&lt;x\""));
    }

    #[test]
    fn the_principal_is_shown_as_text_on_every_signed_in_page() {
        let caller = adas_proto::pb::Caller {
            name: "<b>eve</b>".into(),
            tenant: "acme".into(),
            roles: vec!["user".into(), "supervisor".into()],
            dev_mode: false,
        };
        let shown = page("t", Who::Caller(&caller), &[], "");
        assert!(shown.contains("&lt;b&gt;eve&lt;/b&gt;</strong>"), "{shown}");
        assert!(shown.contains("<span class=\"roles\">user, supervisor</span>"));
        assert!(!page("t", Who::SignedIn, &[], "").contains("class=\"who\""));
        assert!(!page("t", Who::Nobody, &[], "").contains("<nav>"));
        assert!(holds_role(&caller, "Supervisor") && !holds_role(&caller, "admin"));
        let dev = adas_proto::pb::Caller {
            dev_mode: true,
            ..caller
        };
        assert!(holds_role(&dev, "admin"));
    }

    #[test]
    fn ids_are_shown_by_the_prefix_that_tells_them_apart() {
        let a = "j01a22ec81740d65036b32338f4fdf0de7ceb890aef9b";
        let b = "j01a22ec81a1a8feb6cf3f7e05aa6a2f2219cc3c3e7ca";
        assert_eq!(distinct_prefix([a, b]), 12);
        // Two ids of one millisecond: told apart by their random part.
        let c = "j01a22ec81740d75036b32338f4fdf0de7ceb890aef9b";
        assert_eq!(distinct_prefix([a, b, c, a]), 15);
        assert_eq!(distinct_prefix([]), 12);
        let shown = short_id(a, 12, "/skills/s/jobs/x");
        assert!(shown.starts_with(&format!(
            "<a class=\"id\" href=\"/skills/s/jobs/x\" title=\"{a}\">j01a22ec8174…</a>"
        )));
        assert!(shown.contains(&format!("data-copy=\"{a}\"")));
        assert!(short_id("j1", 12, "/").contains(">j1</a>"));
        assert!(short_id("\"><b>", 12, "/").contains("&quot;&gt;&lt;b&gt;"));
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
