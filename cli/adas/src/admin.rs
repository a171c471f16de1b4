//! `adas auth` (principals and their keys in an auth file, offline) and
//! `adas health` (one gRPC health check, for a container's healthcheck).

use std::process::ExitCode;

use clap::Subcommand;

use crate::client::Client;
use crate::{fail, output};

#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// API keys.
    Key {
        #[command(subcommand)]
        command: KeyCommand,
    },
    /// Client certificates (mTLS; the server needs --tls-client-ca).
    Cert {
        #[command(subcommand)]
        command: CertCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum CertCommand {
    /// Add a principal that authenticates with a client certificate; only its
    /// SHA-256 fingerprint is kept.
    Add {
        #[command(flatten)]
        principal: PrincipalArgs,
        /// The client certificate (PEM).
        #[arg(long)]
        cert: std::path::PathBuf,
    },
}

/// Who a new principal is, and the auth file it goes to.
#[derive(Debug, clap::Args)]
pub struct PrincipalArgs {
    /// Principal name (recorded as job owner, approver, skill author).
    #[arg(long)]
    name: String,
    /// The tenant whose skills and jobs it sees (`*`: every tenant, for the
    /// `service` key of a split deployment's workers only).
    #[arg(long)]
    tenant: String,
    /// A role: admin, operator, user, service, or an approver role a skill
    /// names (e.g. supervisor). Repeat for several.
    #[arg(long = "role", required = true)]
    roles: Vec<String>,
    /// A claim mapped to it, NAME=VALUE (e.g. `email=alice@company.com`):
    /// skills read it as `${principal.NAME}`. Repeat for several.
    #[arg(long = "claim", value_name = "NAME=VALUE")]
    claims: Vec<String>,
    /// The auth file to add it to (created if absent).
    #[arg(long, env = "ADAS_AUTH_FILE")]
    auth_file: std::path::PathBuf,
}

#[derive(Debug, Subcommand)]
pub enum KeyCommand {
    /// Add a principal with a new API key; the key is printed once and only
    /// its SHA-256 digest is kept.
    Create {
        #[command(flatten)]
        principal: PrincipalArgs,
    },
    /// List the principals: name, tenant, roles, how they sign in and the
    /// start of their key's digest (never a key).
    List {
        /// The auth file.
        #[arg(long, env = "ADAS_AUTH_FILE")]
        auth_file: std::path::PathBuf,
    },
    /// Revoke a principal's key: it stops working as soon as the servers
    /// reread the file (they watch it), and the principal is removed.
    Revoke {
        /// Principal name.
        name: String,
        /// The auth file.
        #[arg(long, env = "ADAS_AUTH_FILE")]
        auth_file: std::path::PathBuf,
    },
    /// Give a principal a new key (printed once); the old one stops working
    /// as soon as the servers reread the file.
    Rotate {
        /// Principal name.
        name: String,
        /// The auth file.
        #[arg(long, env = "ADAS_AUTH_FILE")]
        auth_file: std::path::PathBuf,
    },
}

/// `adas auth key list|revoke|rotate`.
fn key_change(command: KeyCommand, output: output::Format) -> Result<(), fail::Failure> {
    use adas_runtime::auth::AuthFile;
    let known = |auth_file: &std::path::Path, name: &str| -> Result<(), fail::Failure> {
        let file = AuthFile::read(auth_file)?;
        if file.principals.iter().any(|entry| entry.name == name) {
            Ok(())
        } else {
            Err(fail::Failure {
                exit: fail::Exit::NotFound,
                message: format!(
                    "no principal named `{name}` in {} (`adas auth key list` shows them)",
                    auth_file.display()
                ),
            })
        }
    };
    match command {
        KeyCommand::List { auth_file } => {
            let file = AuthFile::read(&auth_file)?;
            let rows: Vec<serde_json::Value> = file
                .principals
                .iter()
                .map(|entry| {
                    serde_json::json!({
                        "name": entry.name,
                        "tenant": entry.tenant,
                        "roles": entry.roles,
                        "claims": entry.claims.iter().map(|(claim, value)| format!("{claim}={value}")).collect::<Vec<_>>(),
                        "signs_in_with": if entry.key_sha256.is_empty() { "certificate" } else { "key" },
                        "digest": entry.key_sha256.get(..12).or(entry.cert_sha256.get(..12)).unwrap_or(""),
                    })
                })
                .collect();
            if output.is_data() {
                output::print_value(&serde_json::Value::Array(rows), output);
            } else {
                let table: Vec<Vec<String>> = rows
                    .iter()
                    .map(|row| {
                        [
                            "name",
                            "tenant",
                            "roles",
                            "claims",
                            "signs_in_with",
                            "digest",
                        ]
                        .iter()
                        .map(|field| match &row[*field] {
                            serde_json::Value::String(text) => text.clone(),
                            serde_json::Value::Array(items) => items
                                .iter()
                                .filter_map(serde_json::Value::as_str)
                                .collect::<Vec<_>>()
                                .join(","),
                            other => other.to_string(),
                        })
                        .collect()
                    })
                    .collect();
                output::print_table(
                    &[
                        "name",
                        "tenant",
                        "roles",
                        "claims",
                        "signs in with",
                        "digest",
                    ],
                    &table,
                );
            }
        }
        KeyCommand::Revoke { name, auth_file } => {
            known(&auth_file, &name)?;
            AuthFile::update(&auth_file, |file| file.revoke_key(&name))?;
            eprintln!("{}: the key of `{name}` is revoked", auth_file.display());
        }
        KeyCommand::Rotate { name, auth_file } => {
            known(&auth_file, &name)?;
            let key = AuthFile::update(&auth_file, |file| file.rotate_key(&name))?;
            eprintln!(
                "{}: `{name}` has a new key, shown once (the old one stops working):",
                auth_file.display()
            );
            println!("{key}");
        }
        KeyCommand::Create { .. } => unreachable!("auth() adds keys"),
    }
    Ok(())
}

pub fn auth(command: AuthCommand, output: output::Format) -> ExitCode {
    use adas_runtime::auth::AuthFile;
    let (done, auth_file, shown) = match command {
        AuthCommand::Key {
            command:
                command @ (KeyCommand::List { .. }
                | KeyCommand::Revoke { .. }
                | KeyCommand::Rotate { .. }),
        } => {
            return match key_change(command, output) {
                Ok(()) => ExitCode::SUCCESS,
                Err(failure) => failure.report(),
            };
        }
        AuthCommand::Key {
            command:
                KeyCommand::Create {
                    principal:
                        PrincipalArgs {
                            name,
                            tenant,
                            roles,
                            claims,
                            auth_file,
                        },
                },
        } => (
            AuthFile::update(&auth_file, |file| {
                let key = file.add_key(&name, &tenant, &roles)?;
                file.set_claims(&name, &claims)?;
                Ok(key)
            }),
            auth_file,
            format!(
                "principal `{name}` (tenant `{tenant}`, roles {}) added; the key is shown once:",
                roles.join(", ")
            ),
        ),
        AuthCommand::Cert {
            command:
                CertCommand::Add {
                    principal:
                        PrincipalArgs {
                            name,
                            tenant,
                            roles,
                            claims,
                            auth_file,
                        },
                    cert,
                },
        } => (
            std::fs::read(&cert)
                .map_err(|error| format!("{}: {error}", cert.display()))
                .and_then(|pem| {
                    AuthFile::update(&auth_file, |file| {
                        let fingerprint = file.add_cert(&name, &tenant, &roles, &pem)?;
                        file.set_claims(&name, &claims)?;
                        Ok(fingerprint)
                    })
                }),
            auth_file,
            format!(
                "principal `{name}` (tenant `{tenant}`, roles {}) added for the certificate with SHA-256:",
                roles.join(", ")
            ),
        ),
    };
    match done {
        Ok(value) => {
            eprintln!("{} {shown}", auth_file.display());
            println!("{value}");
            ExitCode::SUCCESS
        }
        Err(error) => fail::Failure::failed(error).report(),
    }
}

/// `adas health`: one gRPC health check, with a deadline.
pub fn health(client: &Client, service: String) -> Result<(), fail::Failure> {
    use tonic_health::pb::health_check_response::ServingStatus;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| fail::Failure::failed(error.to_string()))?;
    runtime.block_on(async {
        let channel = client.channel().await?;
        let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
        let mut request = tonic::Request::new(tonic_health::pb::HealthCheckRequest {
            service: service.clone(),
        });
        request.set_timeout(std::time::Duration::from_secs(5));
        let status = health
            .check(request)
            .await
            .map_err(|status| fail::Failure::from_status(&status))?
            .into_inner()
            .status();
        let shown = if service.is_empty() {
            "the server"
        } else {
            &service
        };
        if status == ServingStatus::Serving {
            println!("{shown} at {}: SERVING", client.server);
            Ok(())
        } else {
            Err(fail::Failure {
                exit: fail::Exit::Unavailable,
                message: format!("{shown} at {}: {}", client.server, status.as_str_name()),
            })
        }
    })
}
