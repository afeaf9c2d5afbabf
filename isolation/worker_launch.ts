/**
 * The worker's side of the sandbox. Before planning: under an OS sandbox the
 * network plan (isolation/worker_network.ts) decides how the worker reaches
 * its provider: through the forwarder (a placeholder instead of the key, a
 * base URL that reaches the forwarder) or through the allowlist proxy (the
 * CLI's own URLs and key, proxy variables set). After planning: the launch is
 * wrapped by the run's backend, with the forwarder or proxy running for the
 * length of the turn. A research turn's web tools get the egress proxy too:
 * its hosts join the allowlist proxy's list, or a second proxy runs beside
 * the forwarder (its own log, `worker-web.jsonl`).
 */
import { isAbsolute, join } from "../base/path.ts";
import type { LaunchPlan } from "../adapters/types.ts";
import { within } from "../sandbox/host_paths.ts";
import { resolveTools } from "../sandbox/tool_roots.ts";
import { basePath, type ProviderApi } from "../sandbox/provider_routes.ts";
import { BRIDGE_PORT, type NetworkPolicy } from "../sandbox/sandbox_policy.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { Enforcement, SandboxLevel, StepKind } from "../schemas/sandbox_record.ts";
import type { SpotContext } from "../store/context.ts";
import { describeNetwork, type NetworkPlan } from "../providers/network_plan.ts";
import type { Profile } from "../schemas/config.ts";
import { type Egress, startEgress } from "./egress.ts";
import { type Forwarder, startForwarder } from "./forwarder.ts";
import { workerNetwork } from "./worker_network.ts";
import { dependencyBinds } from "./dependency_binds.ts";
import { cwdFacts, hostFacts, lockedFiles, SPOT_ROOT } from "./host_facts.ts";
import { vetPlanPaths, vetProfileRoots } from "./read_roots.ts";
import { effectiveUid, sandboxForRun } from "./run_sandbox.ts";
import { buildStepPolicy } from "./step_policy.ts";

export interface WorkerLaunch {
  argv: string[];
  /** The environment the step hands to what it spawns (empty under bwrap: the env is inside the argv). */
  env: Record<string, string>;
  /** The binary the worker step must be allowed to run. */
  program: string;
  level: SandboxLevel;
  backend: string;
  /** What the launch's sandbox policy enforced; null without an OS sandbox. */
  enforcement: Enforcement | null;
  /** Ends what the launch started beside the worker (the forwarder). */
  stop(): Promise<void>;
}

/** The log of the web proxy that runs beside the forwarder for a research turn. */
export const WEB_LOG = "worker-web.jsonl";

export interface WorkerSandbox {
  /** True when the launch will run inside an OS sandbox (a CLI's own sandbox would nest and fail). */
  os: boolean;
  /** How the worker reaches its provider under the OS sandbox; null without one (the host's network). */
  network: NetworkPlan | null;
  /** Profile fields the plan must use instead of the configured ones. */
  profile: { baseUrl?: string; providerType?: ProviderApi };
  /** The key the worker is given: a placeholder behind the forwarder. */
  apiKey: string | undefined;
  launch(plan: LaunchPlan, homeDir: string, homeFiles?: { readOnly: string[]; writable: string[] }): Promise<
    WorkerLaunch
  >;
}

export interface WorkerSandboxOptions {
  /** A worker turn, or the self-review turn. */
  kind: Extract<StepKind, "worker" | "self-review">;
  /** A worker turn that may only read: the worktree is mounted read-only (a job's read-only roles). */
  readOnly?: boolean;
  binary: string;
  apiKey: string | undefined;
  /** The run's profile (name and fields); a run whose profile is gone gets only what the state records. */
  profile: Partial<Profile> & Pick<Profile, "adapter" | "provider">;
  timeoutMs: number;
  /** A research turn whose CLI has web tools: the hosts they may reach (none: every fetch refused). */
  web?: { hosts: string[] };
  /** Files spot hands the turn (under the run dir), shown read-only. */
  attachments?: string[];
}

/** One line for the run's events: where the research turn's web tools may go, and where that is recorded. */
function webNote(hosts: string[], how: string, enforced = true): string {
  const list = hosts.length
    ? hosts.join(", ")
    : enforced
    ? "no host (every fetch is refused)"
    : "no host listed";
  return `Web tools for this research turn: ${list}; ${how}`;
}

/** Absolute paths on the worker's command line: run-dir paths become writable, other files readable. */
export function planPaths(
  args: string[],
  runDir: string,
  worktree: string,
): { writable: string[]; readOnly: string[] } {
  const out = { writable: [] as string[], readOnly: [] as string[] };
  for (const arg of args) {
    // The run dir itself holds spot's records: never shown whole.
    if (!isAbsolute(arg) || within(arg, worktree) || arg === runDir) continue;
    let info: Deno.FileInfo | null = null;
    try {
      info = Deno.lstatSync(arg);
    } catch {
      // Not there yet: only a run-dir path may be created.
    }
    if (within(arg, runDir) && !info?.isFile) out.writable.push(arg);
    else if (info?.isFile || info?.isDirectory) out.readOnly.push(arg);
  }
  return out;
}

export async function workerSandbox(
  ctx: SpotContext,
  state: RunState,
  options: WorkerSandboxOptions,
): Promise<WorkerSandbox> {
  const box = await sandboxForRun(ctx, state);
  const runDir = ctx.store.dir(state.runId);
  if (box.backend.name === "none") {
    if (options.web) {
      await ctx.store.event(state.runId, {
        type: "note",
        message: webNote(
          options.web.hosts,
          "not enforced: without an OS sandbox (--sandbox none) the worker can reach any host",
          false,
        ),
      });
    }
    return {
      os: false,
      network: null,
      profile: {},
      apiKey: options.apiKey,
      launch: (plan) =>
        Promise.resolve({
          argv: plan.argv,
          env: plan.env,
          program: options.binary,
          level: box.backend.level,
          backend: "none",
          enforcement: null,
          stop: () => Promise.resolve(),
        }),
    };
  }
  const network = workerNetwork(ctx, state.profile, options.profile);
  const forward = network.mode === "forwarder" ? network : null;
  const keyEnv = options.profile.apiKeyEnv ?? null;
  const placeholder = `spot-placeholder-${crypto.randomUUID()}`;
  await ctx.store.event(state.runId, {
    type: "note",
    message: `Worker network: ${describeNetwork(network)}`,
  });
  const web = options.web && network.mode !== "offline" ? options.web : undefined;
  if (web) {
    const log = forward ? WEB_LOG : "worker-egress.jsonl";
    await ctx.store.event(state.runId, {
      type: "note",
      message: webNote(web.hosts, `enforced by spot's egress proxy, every request recorded in ${log}`),
    });
  }
  return {
    os: true,
    network,
    profile: forward
      ? {
        baseUrl: `http://127.0.0.1:${BRIDGE_PORT}${basePath(forward.upstream)}`,
        providerType: forward.providerType,
      }
      : {},
    // Behind the forwarder the real key stays with it; behind the proxy TLS is end to end, so the CLI holds it.
    apiKey: options.apiKey === undefined || !forward ? options.apiKey : placeholder,
    launch: async (plan, homeDir, homeFiles = { readOnly: [], writable: [] }) => {
      let forwarder: Forwarder | null = null;
      let egress: Egress | null = null;
      let net: NetworkPolicy = { mode: "none" };
      const bridge = { deno: Deno.execPath(), bridgeScript: join(SPOT_ROOT, "sandbox", "bridge.ts") };
      if (forward) {
        forwarder = await startForwarder(ctx, {
          runId: state.runId,
          upstream: forward.upstream,
          api: forward.providerType,
          keyEnv,
          key: options.apiKey,
          placeholder,
          timeoutMs: options.timeoutMs,
        });
        net = { mode: "forwarder", hostSocket: forwarder.socket, ...bridge };
        if (web) {
          // A second channel: only the web hosts, and the provider route to this forwarder for the CLIs
          // whose proxy agent ignores NO_PROXY and asks the proxy for 127.0.0.1:18765.
          egress = await startEgress(ctx, {
            runId: state.runId,
            allow: web.hosts,
            logName: WEB_LOG,
            timeoutMs: options.timeoutMs,
            forwarderSocket: forwarder.socket,
          }).catch(async (error) => {
            await forwarder?.stop();
            throw error;
          });
          net = { ...net, web: { hosts: web.hosts, proxySocket: egress.socket } };
        }
      } else if (network.mode === "allowlist") {
        // A CLI has one HTTPS_PROXY: the web hosts join the provider's on the one list.
        const allow = [...new Set([...network.hosts, ...(web?.hosts ?? [])])];
        egress = await startEgress(ctx, {
          runId: state.runId,
          allow,
          logName: "worker-egress.jsonl",
          timeoutMs: options.timeoutMs,
        });
        net = {
          mode: "proxy",
          hostSocket: egress.socket,
          allow,
          ...(web ? { web: { hosts: web.hosts } } : {}),
          ...bridge,
        };
      }
      const stopNet = async () => {
        await forwarder?.stop();
        await egress?.stop();
      };
      try {
        const host = hostFacts(ctx, box, state.sourceRoot);
        const paths = planPaths(plan.argv.slice(1), runDir, state.worktreePath);
        for (const dir of paths.writable) await Deno.mkdir(dir, { recursive: true });
        const policy = buildStepPolicy(
          {
            kind: options.kind,
            cwd: state.worktreePath,
            readOnlyCwd: options.readOnly,
            writable: [...paths.writable, ...homeFiles.writable],
            readOnly: [
              ...vetPlanPaths(paths.readOnly, host.home),
              // spot's own files for the turn: only those under the run dir, never the run dir itself.
              ...(options.attachments ?? []).filter((f) => within(f, runDir) && f !== runDir),
              ...vetProfileRoots(options.profile?.readRoots, host),
            ],
            tools: resolveTools([options.binary], host.home),
            binds: dependencyBinds(state.dependencies, state.worktreePath, () => false),
            home: {
              path: homeDir,
              files: [...plan.files.map((f) => f.path), ...homeFiles.readOnly].filter((p) =>
                within(p, homeDir)
              ),
            },
            env: plan.env,
            network: net,
          },
          host,
          await cwdFacts(state.worktreePath, {
            lockedFiles: await lockedFiles(ctx, state),
            viewDir: join(runDir, "git-view", options.kind),
            identity: state.identity,
          }),
        );
        return {
          argv: box.backend.wrap(policy, plan.argv),
          env: {},
          program: box.backend.program(plan.argv),
          level: box.backend.level,
          backend: box.backend.name,
          enforcement: box.backend.enforcement(policy, { uid: effectiveUid() }),
          stop: stopNet,
        };
      } catch (error) {
        await stopNet();
        throw error;
      }
    },
  };
}
