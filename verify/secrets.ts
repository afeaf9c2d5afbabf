/**
 * Spots credentials a worker adds, by well-known token shapes and by quoted
 * values assigned to secret-sounding names. A finding never carries the secret:
 * reports, logs and review prompts only ever see a redacted preview.
 */
import { foldSegment } from "./path_rules.ts";

export interface Finding {
  file: string;
  line: number;
  rule: string;
  preview: string;
}

/** Token shapes issued by providers; each is distinctive enough to flag on sight. */
const TOKEN_RULES: { rule: string; pattern: RegExp }[] = [
  { rule: "aws-access-key-id", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  // A digit or capital tells a random key from kebab-case names like "sk-folding-cube-spinner".
  { rule: "sk-api-key", pattern: /\bsk-(?:proj-|ant-|svcacct-|admin-)?(?=[\w-]*[0-9A-Z])[\w-]{20,}/g },
  { rule: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,})\b/g },
  { rule: "slack-token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { rule: "google-api-key", pattern: /\bAIza[\w-]{35}(?![\w-])/g },
  { rule: "private-key-block", pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g },
  { rule: "jwt", pattern: /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g },
];
/** A secret-sounding name, then an assignment, then a quoted literal of 11+ characters. */
const ASSIGNMENT =
  /(?:api[_-]?key|secrets?|token|password|passwd|access[_-]?key)(?:[_-]?key)?["'`]?\s*(?::=|=>|[:=])\s*(["'`])([^"'`\n]{11,512})\1/gi;
/** Words people type where a real value will go later. */
// deno-fmt-ignore
const PLACEHOLDER_WORDS = new Set([
  "dummy", "example", "fake", "placeholder", "changeme", "change", "me", "your", "my", "xxx", "test",
  "sample", "redacted", "here", "api", "key", "secret", "token", "password", "value", "insert", "replace",
  "todo", "goes", "the", "access", "bearer", "a", "an", "enter", "not", "set", "real", "dev", "local", "sk",
]);
/** References resolved elsewhere: `<name>`, `${VAR}`, `{{ var }}`, `$VAR`, `%(name)s`. */
const REFERENCES = /<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|\$[A-Za-z_]\w*|%\([^)]*\)s/g;

/** The first characters only, so a finding can be traced without leaking the value. */
function redact(secret: string): string {
  return `${secret.slice(0, 4)}…`;
}

/** Whether a value is only stand-in words, masks and references, not a real secret. */
export function isPlaceholder(value: string): boolean {
  const words = value.replace(REFERENCES, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
  return words.every((word) => PLACEHOLDER_WORDS.has(word) || /^x{3,}$/.test(word));
}

/** A fixed-shape token that is plainly filler, like AWS's documented "…EXAMPLE" key. */
function isFillerToken(token: string): boolean {
  return /example/i.test(token) || /(.)\1{11,}/.test(token);
}

export function findSecrets(file: string, added: { line: number; text: string }[]): Finding[] {
  const findings: Finding[] = [];
  for (const { line, text } of added) {
    const tokenSpans: [number, number][] = [];
    for (const { rule, pattern } of TOKEN_RULES) {
      for (const match of text.matchAll(pattern)) {
        if (isFillerToken(match[0])) continue;
        tokenSpans.push([match.index, match.index + match[0].length]);
        findings.push({ file, line, rule, preview: redact(match[0]) });
      }
    }
    for (const match of text.matchAll(ASSIGNMENT)) {
      const value = match[2];
      const start = match.index + match[0].length - value.length - 1;
      const seen = tokenSpans.some(([from, to]) => from < start + value.length && to > start);
      if (seen || isPlaceholder(value)) continue;
      findings.push({ file, line, rule: "assigned-secret", preview: redact(value) });
    }
  }
  return findings;
}

/** Basenames that hold credentials by convention, with why each is refused. */
const SECRET_FILES: [RegExp, string][] = [
  [
    /^\.env(?:\.(?!(?:example|sample|template)$).+)?$/,
    "it is an environment file, which usually holds secrets",
  ],
  [/^\.envrc$/, "it is a direnv file, which usually holds secrets"],
  [/^\.(?:npmrc|pypirc|netrc|git-credentials|pgpass|htpasswd)$/, "it is a credentials file"],
  [/^(?:auth\.json|credentials(?:\.json)?)$/, "it is a credentials file"],
  [/^id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?$/, "it is an SSH private key"],
  [/\.(?:pem|key|p12|pfx)$/, "it is a key or certificate store"],
];

/** Why a file's name marks it as a credential store, or null when it does not. */
export function secretFileName(path: string): string | null {
  const base = foldSegment(path.split("/").at(-1) ?? "");
  return SECRET_FILES.find(([pattern]) => pattern.test(base))?.[1] ?? null;
}
