/** Reads and checks a task contract file; every problem is reported with its line:col. */
import { SpotError } from "../errors.ts";
import type { Config } from "../schemas/config.ts";
import { lazy } from "../base/lazy.ts";
import { formatIssuesOf, parseJsonWithSchema, strictJson } from "../schemas/parse_json.ts";
import { plainContract } from "../schemas/fast/contract.ts";
import type { TaskContract } from "../schemas/task_contract.ts";

function withPolicy(config: Config, { TaskContract }: typeof import("../schemas/task_contract.ts")) {
  const allowed = new Set(config.verificationEnvAllowlist);
  return TaskContract.superRefine((task, ctx) => {
    task.verification.forEach((cmd, i) => {
      for (const name of Object.keys(cmd.env ?? {})) {
        if (allowed.has(name)) continue;
        ctx.addIssue({
          code: "custom",
          path: ["verification", i, "env", name],
          message: `"${name}" is not in verificationEnvAllowlist (${[...allowed].join(", ")})`,
        });
      }
    });
  });
}

export async function readContract(file: string, config: Config): Promise<TaskContract> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    throw new SpotError(
      "CONTRACT_INVALID",
      `Cannot read task contract "${file}": ${(error as Error).message}`,
    );
  }
  // A plainly valid contract needs no zod (its checks name no env, so the allowlist has nothing to refuse);
  // anything else is read by the schema, which says what is wrong.
  const fast = strictJson(text);
  const plain = fast ? plainContract(fast.value) : null;
  if (plain) return plain;
  const schemas = await lazy<typeof import("../schemas/task_contract.ts")>(
    "../schemas/task_contract.ts",
    import.meta.url,
  );
  const parsed = await parseJsonWithSchema(text, withPolicy(config, schemas));
  if (!parsed.ok) {
    throw new SpotError(
      "CONTRACT_INVALID",
      `Cannot accept task contract "${file}": ${parsed.issues.length} problem(s)\n${await formatIssuesOf(
        file,
        parsed.issues,
      )}`,
      { details: { file, issues: parsed.issues } },
    );
  }
  return parsed.value;
}
