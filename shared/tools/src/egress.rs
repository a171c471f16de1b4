//! The egress policy: which MCP servers a skill may make this process talk to.
//!
//! A skill document arrives over the API, so its `mcp_server` is untrusted input.
//! Two rules follow. A local command (`stdio:NAME`) is only ever one the operator
//! configured under that name; a skill can name it but never supply it. An HTTP(S)
//! server is resolved first and every address it resolves to is checked: loopback,
//! private, link-local, metadata and other special-purpose addresses are refused
//! unless the operator allow-listed them (a host, `host:port` or a CIDR), and the
//! connection is then pinned to the checked address so a second DNS answer cannot
//! rebind it. The decision is made before any connection is attempted.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// An allow-list entry.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Allow {
    /// A host name or IP literal, any port.
    Host(String),
    /// A host and port.
    Authority(String, u16),
    /// An address range.
    Cidr(IpAddr, u8),
    /// Any globally routable address.
    Public,
}

/// Where a checked MCP URI may connect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// An HTTP(S) server: the URI, its host, and the checked address to pin it to.
    Http {
        /// The URI as written.
        uri: String,
        /// Its host (what the TLS name and `Host` header use).
        host: String,
        /// The resolved, allowed address.
        addr: SocketAddr,
    },
    /// An operator-configured local command.
    Stdio {
        /// Its configured name.
        name: String,
        /// The command line (run with `sh -c`).
        command: String,
    },
}

/// Why a URI is refused. The text names the rule, never anything fetched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("MCP server `{uri}` is not allowed: {reason}")]
pub struct EgressDenied {
    /// The URI.
    pub uri: String,
    /// Which rule refused it.
    pub reason: String,
}

/// The operator's egress policy for MCP servers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EgressPolicy {
    allow: Vec<Allow>,
    stdio: BTreeMap<String, String>,
}

impl EgressPolicy {
    /// A policy from allow-list entries (`host`, `host:port`, `a.b.c.d/n`,
    /// `v6::/n`, `public`) and named stdio commands (`NAME=COMMAND`).
    pub fn new<'a>(
        allow: impl IntoIterator<Item = &'a str>,
        stdio: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, String> {
        let mut policy = Self::default();
        for entry in allow {
            policy.allow.push(parse_allow(entry.trim())?);
        }
        for entry in stdio {
            let (name, command) = entry
                .split_once('=')
                .filter(|(name, command)| is_name(name) && !command.trim().is_empty())
                .ok_or_else(|| format!("stdio MCP server `{entry}`: expected NAME=COMMAND"))?;
            policy.stdio.insert(name.to_owned(), command.to_owned());
        }
        Ok(policy)
    }

    /// Also allows the authority of `url` (the demo server's configured URL).
    pub fn allowing_url(mut self, url: &str) -> Self {
        if let Ok((host, port)) = authority(url) {
            self.allow.push(Allow::Authority(host, port));
        }
        self
    }

    /// Checks `uri` and resolves it to where it may connect. Host names are
    /// resolved here; the caller connects to [`Target::Http::addr`] only.
    pub async fn check(&self, uri: &str) -> Result<Target, EgressDenied> {
        let denied = |reason: String| EgressDenied {
            uri: uri.to_owned(),
            reason,
        };
        if let Some(name) = uri.strip_prefix("stdio:") {
            return match self.stdio.get(name.trim()) {
                Some(command) => Ok(Target::Stdio {
                    name: name.trim().to_owned(),
                    command: command.clone(),
                }),
                None => Err(denied(
                    "a stdio server must be one the operator configured by name \
                     (--mcp-stdio NAME=COMMAND); a skill cannot supply a command"
                        .into(),
                )),
            };
        }
        let (host, port) = authority(uri).map_err(denied)?;
        let addrs: Vec<SocketAddr> = match host.parse::<IpAddr>() {
            Ok(ip) => vec![SocketAddr::new(ip, port)],
            Err(_) => tokio::net::lookup_host((host.as_str(), port))
                .await
                .map_err(|_| denied(format!("`{host}` does not resolve")))?
                .collect(),
        };
        let Some(first) = addrs.first().copied() else {
            return Err(denied(format!("`{host}` does not resolve")));
        };
        // Every answer must pass: a name with one public and one private address
        // is refused rather than left to the connector's choice.
        for addr in &addrs {
            if !self.allows(&host, addr) {
                return Err(denied(format!(
                    "{} is a {} address and not in the allow-list (--mcp-allow)",
                    addr.ip(),
                    class(addr.ip()).unwrap_or("public")
                )));
            }
        }
        Ok(Target::Http {
            uri: uri.to_owned(),
            host,
            addr: first,
        })
    }

    /// Checks what can be checked without resolving: the scheme, the stdio rule,
    /// and IP literals. Used where nothing may be looked up (ValidateSkill).
    pub fn check_static(&self, uri: &str) -> Result<(), EgressDenied> {
        let denied = |reason: String| EgressDenied {
            uri: uri.to_owned(),
            reason,
        };
        if uri.starts_with("stdio:") {
            return self.check_stdio_name(uri).map_err(denied);
        }
        let (host, port) = authority(uri).map_err(denied)?;
        if let Ok(ip) = host.parse::<IpAddr>() {
            let addr = SocketAddr::new(ip, port);
            if !self.allows(&host, &addr) {
                return Err(denied(format!(
                    "{ip} is a {} address and not in the allow-list (--mcp-allow)",
                    class(ip).unwrap_or("public")
                )));
            }
        }
        Ok(())
    }

    fn check_stdio_name(&self, uri: &str) -> Result<(), String> {
        let name = uri.trim_start_matches("stdio:").trim();
        if self.stdio.contains_key(name) {
            Ok(())
        } else {
            Err(
                "a stdio server must be one the operator configured by name \
                 (--mcp-stdio NAME=COMMAND); a skill cannot supply a command"
                    .into(),
            )
        }
    }

    fn allows(&self, host: &str, addr: &SocketAddr) -> bool {
        let ip = canonical(addr.ip());
        self.allow.iter().any(|allow| match allow {
            Allow::Host(allowed) => allowed.eq_ignore_ascii_case(host),
            Allow::Authority(allowed, port) => {
                allowed.eq_ignore_ascii_case(host) && *port == addr.port()
            }
            Allow::Cidr(network, bits) => in_cidr(ip, *network, *bits),
            Allow::Public => class(ip).is_none(),
        })
    }
}

fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn parse_allow(entry: &str) -> Result<Allow, String> {
    if entry.eq_ignore_ascii_case("public") {
        return Ok(Allow::Public);
    }
    if let Some((network, bits)) = entry.split_once('/') {
        let network: IpAddr = network
            .parse()
            .map_err(|_| format!("allow-list entry `{entry}`: not an address range"))?;
        let max = if network.is_ipv4() { 32 } else { 128 };
        let bits: u8 = bits
            .parse()
            .ok()
            .filter(|bits| *bits <= max)
            .ok_or_else(|| format!("allow-list entry `{entry}`: prefix length 0–{max}"))?;
        return Ok(Allow::Cidr(canonical(network), bits));
    }
    if let Ok(ip) = entry.parse::<IpAddr>() {
        return Ok(Allow::Host(ip.to_string()));
    }
    if let Ok(addr) = entry.parse::<SocketAddr>() {
        return Ok(Allow::Authority(addr.ip().to_string(), addr.port()));
    }
    match entry.rsplit_once(':') {
        Some((host, port)) if !host.is_empty() => Ok(Allow::Authority(
            host.to_ascii_lowercase(),
            port.parse()
                .map_err(|_| format!("allow-list entry `{entry}`: bad port"))?,
        )),
        _ if !entry.is_empty() && !entry.contains(['/', ' ']) => {
            Ok(Allow::Host(entry.to_ascii_lowercase()))
        }
        _ => Err(format!(
            "allow-list entry `{entry}` is not a host, host:port or CIDR"
        )),
    }
}

/// The host and port of an `http(s)://` URI.
fn authority(uri: &str) -> Result<(String, u16), String> {
    let parsed: http::Uri = uri
        .parse()
        .map_err(|_| "not a URI (use http(s)://host[:port]/path or stdio:NAME)".to_owned())?;
    let default_port = match parsed.scheme_str() {
        Some("http") => 80,
        Some("https") => 443,
        _ => return Err("only http://, https:// and stdio:NAME servers are supported".into()),
    };
    let authority = parsed.authority().ok_or("the URI has no host")?;
    if authority.as_str().contains('@') {
        return Err("credentials in the URI are not allowed".into());
    }
    let host = authority
        .host()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    Ok((host, authority.port_u16().unwrap_or(default_port)))
}

/// An IPv4-mapped IPv6 address as the IPv4 address it is.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

fn in_cidr(ip: IpAddr, network: IpAddr, bits: u8) -> bool {
    match (ip, network) {
        (IpAddr::V4(ip), IpAddr::V4(network)) => {
            let mask = u32::MAX.checked_shl(32 - u32::from(bits)).unwrap_or(0);
            u32::from(ip) & mask == u32::from(network) & mask
        }
        (IpAddr::V6(ip), IpAddr::V6(network)) => {
            let mask = u128::MAX.checked_shl(128 - u32::from(bits)).unwrap_or(0);
            u128::from(ip) & mask == u128::from(network) & mask
        }
        _ => false,
    }
}

/// The special-purpose class of an address, `None` for a public one.
pub fn class(ip: IpAddr) -> Option<&'static str> {
    match canonical(ip) {
        IpAddr::V4(v4) => class_v4(v4),
        IpAddr::V6(v6) => class_v6(v6),
    }
}

fn class_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    if ip == Ipv4Addr::new(169, 254, 169, 254) || ip == Ipv4Addr::new(100, 100, 100, 200) {
        Some("metadata")
    } else if ip.is_loopback() {
        Some("loopback")
    } else if ip.is_private() || (a == 100 && (64..128).contains(&b)) {
        Some("private")
    } else if ip.is_link_local() {
        Some("link-local")
    } else if ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        || a >= 240
        || (a == 192 && b == 0)
        || (a == 198 && (18..20).contains(&b))
    {
        Some("reserved")
    } else {
        None
    }
}

fn class_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let first = ip.segments()[0];
    if ip == Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254) {
        Some("metadata")
    } else if ip.is_loopback() {
        Some("loopback")
    } else if first & 0xfe00 == 0xfc00 {
        Some("private")
    } else if first & 0xffc0 == 0xfe80 {
        Some("link-local")
    } else if ip.is_unspecified()
        || ip.is_multicast()
        || first == 0x2001 && ip.segments()[1] == 0xdb8
    {
        Some("reserved")
    } else if first == 0x0064 && ip.segments()[1] == 0xff9b {
        // NAT64 can reach any IPv4 address, private ones included.
        Some("reserved")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(allow: &[&str]) -> EgressPolicy {
        EgressPolicy::new(allow.iter().copied(), ["demo=adas-demo-mcp --stdio"]).unwrap()
    }

    #[tokio::test]
    async fn special_addresses_are_refused_unless_allow_listed() {
        let strict = policy(&[]);
        for uri in [
            "http://127.0.0.1:9/mcp",
            "http://[::1]:9/mcp",
            "http://10.1.2.3/mcp",
            "http://172.16.0.1/mcp",
            "http://192.168.1.1/mcp",
            "http://169.254.169.254/latest/meta-data/",
            "http://169.254.1.1/mcp",
            "http://[fe80::1]/mcp",
            "http://[fd00:ec2::254]/mcp",
            "http://[::ffff:10.0.0.1]/mcp",
            "http://0.0.0.0:80/mcp",
            "http://100.64.0.1/mcp",
            "http://user:pw@8.8.8.8/mcp",
            "ftp://8.8.8.8/mcp",
            "http://8.8.8.8/mcp",
        ] {
            let error = strict.check(uri).await.unwrap_err();
            assert_eq!(error.uri, uri);
            assert!(strict.check_static(uri).is_err() || uri == "http://8.8.8.8/mcp");
        }
        let metadata = strict
            .check("http://169.254.169.254/latest/meta-data/")
            .await
            .unwrap_err();
        assert!(metadata.reason.contains("metadata"), "{metadata}");

        let open = policy(&["127.0.0.1/32", "public", "mcp.internal:8443"]);
        assert!(matches!(
            open.check("http://127.0.0.1:9/mcp").await.unwrap(),
            Target::Http { addr, .. } if addr.port() == 9
        ));
        assert!(open.check("http://8.8.8.8/mcp").await.is_ok());
        assert!(open.check("http://10.1.2.3/mcp").await.is_err());
        assert!(open.check("http://169.254.169.254/").await.is_err());
        assert!(open.check("http://[::1]:9/mcp").await.is_err());
    }

    #[tokio::test]
    async fn stdio_commands_come_only_from_the_operator() {
        let policy = policy(&[]);
        assert_eq!(
            policy.check("stdio:demo").await.unwrap(),
            Target::Stdio {
                name: "demo".into(),
                command: "adas-demo-mcp --stdio".into()
            }
        );
        for uri in ["stdio:touch /tmp/pwned", "stdio:sh -c id", "stdio:"] {
            assert!(policy.check(uri).await.is_err(), "{uri}");
            assert!(policy.check_static(uri).is_err(), "{uri}");
        }
    }

    #[test]
    fn the_demo_url_is_allowed_exactly() {
        let policy = EgressPolicy::default().allowing_url("http://127.0.0.1:50060/mcp");
        assert!(policy.check_static("http://127.0.0.1:50060/other").is_ok());
        assert!(policy.check_static("http://127.0.0.1:50061/mcp").is_err());
        assert!(EgressPolicy::new(["10.0.0.0/33"], []).is_err());
        assert!(EgressPolicy::new([], ["rm -rf"]).is_err());
    }
}
