/** The human view of the registry, for `spot detect` on a terminal. Pure. */
import { stripTerminal } from "./strip.ts";
import { type CliInfo, isFree, type ModelInfo, type Registry } from "./types.ts";

/** Long model lists are cut so the table stays readable; JSON output has them all. */
const MODELS_SHOWN = 12;

function size(tokens: number): string {
  return tokens >= 1_000_000 && tokens % 1_000_000 === 0
    ? `${tokens / 1_000_000}M`
    : tokens >= 1_000 && tokens % 1_000 === 0
    ? `${tokens / 1_000}K`
    : String(tokens);
}

function modelLine(model: ModelInfo): string {
  const price = model.priceFactor === undefined
    ? (isFree(model) ? " [free]" : "")
    : model.priceFactor === 0
    ? " [free]"
    : ` [${model.priceFactor}x]`;
  const ctx = model.contextWindows?.length ? ` ctx ${model.contextWindows.map(size).join("/")}` : "";
  const effort = model.efforts?.length ? ` effort ${model.efforts.join("|")}` : "";
  return `      - ${stripTerminal(model.id)}${price}${ctx}${effort}`;
}

function cliLine(cli: CliInfo): string {
  const name = cli.adapter.padEnd(10);
  if (!cli.installed) return `  ${name} not installed`;
  const version = (cli.version ? `v${stripTerminal(cli.version)}` : "version ?").padEnd(10);
  const free = cli.models.filter(isFree).length;
  const old = cli.versionOk === false ? `  (older than ${cli.minimumVersion})` : "";
  return `  ${name} ${version} ${cli.models.length} model(s)${free ? ` (${free} free)` : ""}${old}`;
}

export function renderRegistry(registry: Registry, options: { cached: boolean }): string {
  const lines = [
    `Detected environment (spot worker CLIs)${options.cached ? `, cached ${registry.detectedAt}` : ""}:`,
  ];
  for (const cli of registry.clis) {
    lines.push(cliLine(cli));
    if (!cli.installed) continue;
    lines.push(...cli.models.slice(0, MODELS_SHOWN).map(modelLine));
    if (cli.models.length > MODELS_SHOWN) lines.push(`      ... ${cli.models.length - MODELS_SHOWN} more`);
  }
  return lines.join("\n") + "\n";
}
