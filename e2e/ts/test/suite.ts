// Starts the suite under test (`adas up` with the demo MCP server) on free
// loopback ports and stops it: the binaries come from ADAS_BIN_DIR (what
// e2e/test.sh built), the templates from this repository.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "../../../../..");

export function binary(name: string): string {
  const dir = process.env.ADAS_BIN_DIR ?? join(process.env.HOME ?? "", ".cache/adas-target/debug");
  return join(dir, name);
}

export interface Running {
  /** `host:port` of the gRPC server. */
  address: string;
  /** The web console's URL, when it serves one (`console on …`). */
  console?: string;
  process: ChildProcess;
  stop(): Promise<number | null>;
}

/** Runs `adas up` with `args` and resolves once it serves (and, with
 * `--console-listen`, once its console does too). */
export async function adasUp(args: string[] = []): Promise<Running> {
  const memory = mkdtempSync(join(tmpdir(), "adas-ts-"));
  const child = spawn(
    binary("adas"),
    ["up", "--listen", "127.0.0.1:0", "--demo-mcp-listen", "127.0.0.1:0",
      ...(args.includes("--console-listen") ? [] : ["--no-console"]),
      "--memory-root", join(memory, "memory"), "--templates-dir", join(root, "skill-templates"), ...args],
    { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ADAS_LOG: "warn" } },
  );
  const wantsConsole = args.includes("--console-listen");
  let address = "";
  let console: string | undefined;
  await new Promise<void>((ready, failed) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (line.startsWith("listening on ")) address = line.slice("listening on ".length).trim();
      if (line.startsWith("console on ")) console = line.slice("console on ".length).trim();
      if (address && (console || !wantsConsole)) ready();
    });
    child.once("exit", (code) => failed(new Error(`adas up exited with ${code} before serving`)));
  });
  return {
    address,
    console,
    process: child,
    stop: () =>
      new Promise((done) => {
        child.once("exit", (code) => done(code));
        child.kill("SIGTERM");
      }),
  };
}
