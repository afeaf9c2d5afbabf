import assert from "node:assert/strict";
import { findSecrets, isPlaceholder, secretFileName } from "./secrets.ts";

// Fixtures are assembled at run time so this file never holds a whole token
// itself and push protection or our own scan does not trip over it.
const FAKE = {
  aws: "AKIA" + "Q7ZL3MPX2RVN5TBE",
  awsSession: "ASIA" + "Z2K7Q4M9W1X8C3V6",
  openai: "sk-" + "proj-" + "T3BlbkFJ8fZq2Lw9Xm4Rv7Np1Ks6Hd0Yc5Ge",
  anthropic: "sk-" + "ant-api03-" + "Jx8Qm2Vn5Rz1Lk7Wp4Ts9Hd3Fb6Yc0Ga",
  github: "ghp" + "_" + "x7Lq2Vm9Rk4Wn1Ts8Hd5Fb3Yc6Ga0Jp2Ze7Mu",
  githubPat: "github" + "_pat_" + "11ABCDEFG0a1b2c3d4e5f6_g7h8i9j0k1l2m3n4o5p6q7r8s9",
  slack: "xox" + "b-2481736450-4958172630495-Kq8Lm2Vn5Rz1Tw7Xp4Ys9Hd3",
  google: "AI" + "za" + "SyD8kQ2mV5nR1zL7wP4tS9hD3fB6yC0gA2e",
  pem: "-----BEGIN " + "OPENSSH PRIVATE KEY-----",
  jwt: "ey" + "JhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
};

const scan = (...texts: string[]) =>
  findSecrets("app/config.ts", texts.map((text, i) => ({ line: i + 10, text })));
const rules = (...texts: string[]) => scan(...texts).map((finding) => finding.rule);

Deno.test("findSecrets() catches provider token shapes wherever they sit in a line", () => {
  assert.deepEqual(rules(`const id = "${FAKE.aws}";`), ["aws-access-key-id"]);
  assert.deepEqual(rules(`aws_session=${FAKE.awsSession}`), ["aws-access-key-id"]);
  assert.deepEqual(rules(`OPENAI_API_KEY=${FAKE.openai}`), ["sk-api-key"]);
  assert.deepEqual(rules(`new Anthropic({ apiKey: '${FAKE.anthropic}' })`), ["sk-api-key"]);
  assert.deepEqual(rules(`git clone https://${FAKE.github}@github.com/o/r`), ["github-token"]);
  assert.deepEqual(rules(`token: ${FAKE.githubPat}`), ["github-token"]);
  assert.deepEqual(rules(`SLACK=${FAKE.slack}`), ["slack-token"]);
  assert.deepEqual(rules(`maps.js?key=${FAKE.google}`), ["google-api-key"]);
  assert.deepEqual(rules(FAKE.pem), ["private-key-block"]);
  assert.deepEqual(rules(`Authorization: Bearer ${FAKE.jwt}`), ["jwt"]);
});

Deno.test("findSecrets() leaves near-miss shapes alone", () => {
  assert.deepEqual(
    rules(
      "const AKIA = 'AKIA1234';",
      'class="sk-folding-cube-spinner-animation"',
      "const task = 'task-runner-for-nightly-builds-2024';",
      "ghp_short",
      "-----BEGIN PUBLIC KEY-----",
      "-----BEGIN CERTIFICATE-----",
      "eyJhbGciOi.x",
      "AKIAIOSFODNN7EXAMPLE is the key AWS documents",
      `xoxb-${"x".repeat(20)}`,
    ),
    [],
  );
});

Deno.test("findSecrets() catches quoted values assigned to secret-sounding names", () => {
  assert.deepEqual(rules('DB_PASSWORD = "Tr0ub4dor&3horse"'), ["assigned-secret"]);
  assert.deepEqual(rules('"client_secret": "9f8e7d6c5b4a39281706"'), ["assigned-secret"]);
  assert.deepEqual(rules("apiKey: 'c2VjcmV0LXZhbHVlLTEy'"), ["assigned-secret"]);
  assert.deepEqual(rules('token := "a1b2c3d4e5f6g7h8"'), ["assigned-secret"]);
  assert.deepEqual(rules("ACCESS_KEY=`wJalrXUtnFEMI/K7MDENG`"), ["assigned-secret"]);
});

Deno.test("findSecrets() skips placeholders, references and short values", () => {
  assert.deepEqual(
    rules(
      'password = "changeme"',
      'api_key = "your-api-key-here"',
      'API_KEY="<your key>"',
      'token: "${GITHUB_TOKEN}"',
      'secret = "{{ secrets.DEPLOY_KEY }}"',
      "password = '$DB_PASSWORD_FROM_ENV'",
      'client_secret: "xxxxxxxxxxxxxxxx"',
      'access_key = "EXAMPLE_ACCESS_KEY_PLACEHOLDER"',
      'password: "************"',
      'token: "dummy-test-token"',
      'secret = "short"',
      'tokenizer = "whitespace-tokenizer-v2"',
    ),
    [],
  );
});

Deno.test("findSecrets() reports a value once even when two rules see it", () => {
  assert.deepEqual(rules(`api_key = "${FAKE.openai}"`), ["sk-api-key"]);
});

Deno.test("findSecrets() reports file, new-side line and a redacted preview only", () => {
  const [finding] = scan("// nothing here", `const k = "${FAKE.aws}"`);
  assert.deepEqual(finding, { file: "app/config.ts", line: 11, rule: "aws-access-key-id", preview: "AKIA…" });
  const [assigned] = scan('password = "Tr0ub4dor&3horse"');
  assert.equal(assigned.preview, "Tr0u…");
  assert.ok(!JSON.stringify(scan(...Object.values(FAKE))).includes(FAKE.aws.slice(4)));
});

Deno.test("isPlaceholder() tells stand-in words from real values", () => {
  assert.ok(isPlaceholder("YourApiKeyHere"));
  assert.ok(isPlaceholder("<insert token>"));
  assert.ok(!isPlaceholder("hunter2hunter2"));
  assert.ok(!isPlaceholder("changeme-9f8e7d6c"));
});

Deno.test("secretFileName() flags files that hold credentials by convention", () => {
  const flagged = [
    ".env",
    "app/.env.local",
    ".env.production",
    ".ENV",
    ".npmrc",
    "home/.netrc",
    ".pypirc",
    "auth.json",
    ".aws/credentials",
    "gcp/credentials.json",
    ".ssh/id_rsa",
    "keys/id_ed25519",
    "tls/server.pem",
    "tls/server.key",
    "client.p12",
  ];
  for (const path of flagged) assert.ok(secretFileName(path), path);
});

Deno.test("secretFileName() lets templates, public keys and look-alikes through", () => {
  const fine = [
    ".env.example",
    "app/.env.sample",
    ".env.template",
    "src/env.ts",
    ".environment",
    ".ssh/id_rsa.pub",
    "docs/credentials.md",
    "src/keys.ts",
    "package.json",
  ];
  for (const path of fine) assert.equal(secretFileName(path), null, path);
  assert.equal(secretFileName("x/.env"), "it is an environment file, which usually holds secrets");
});
