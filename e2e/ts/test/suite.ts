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
  /** Every address the process announced (`listening on …`), in order. */
  announced: string[];
  process: ChildProcess;
  stop(): Promise<number | null>;
}

/** Runs `adas up` with `args` and resolves once it announced `expect` listeners. */
export async function adasUp(args: string[] = [], expect = 1): Promise<Running> {
  const memory = mkdtempSync(join(tmpdir(), "adas-ts-"));
  const child = spawn(
    binary("adas"),
    ["up", "--listen", "127.0.0.1:0", "--demo-mcp-listen", "127.0.0.1:0",
      "--memory-root", join(memory, "memory"), "--templates-dir", join(root, "skill-templates"), ...args],
    { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ADAS_LOG: "warn" } },
  );
  const announced: string[] = [];
  await new Promise<void>((ready, failed) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (line.startsWith("listening on ")) {
        announced.push(line.slice("listening on ".length).trim());
        if (announced.length === expect) ready();
      }
    });
    child.once("exit", (code) => failed(new Error(`adas up exited with ${code} before serving`)));
  });
  return {
    address: announced[0],
    announced,
    process: child,
    stop: () =>
      new Promise((done) => {
        child.once("exit", (code) => done(code));
        child.kill("SIGTERM");
      }),
  };
}
