/**
 * The worker's instructions, built from a safe subset of the contract. The
 * worker is told the rules, but nothing it says about them is evidence.
 */
import type { ResolvedContract } from "../schemas/task_contract.ts";
import type { ReviewResult } from "../schemas/review_result.ts";

function list(title: string, items: string[]): string {
  if (items.length === 0) return "";
  return `## ${title}\n${items.map((i) => `- ${i}`).join("\n")}\n\n`;
}

export function implementationPrompt(task: ResolvedContract): string {
  return [
    `# Task\nrunId: ${task.runId}\n\n${task.goal}\n\n`,
    list("Acceptance criteria", task.acceptanceCriteria),
    list("You may change only these paths (globs)", task.allowedPaths),
    list("Never touch these paths", [...task.forbiddenPaths, ...task.lockedPaths]),
    list("Constraints", task.constraints),
    list(
      "Checks the reviewer will run (you cannot run them)",
      task.verification.map((v) => v.argv.join(" ")),
    ),
    "## Rules\n",
    "- Work only inside the current directory; do not touch .git, CI configuration or test harness files.\n",
    "- Do not add secrets, binaries or symlinks.\n",
    "- Do not claim that tests pass: the reviewer runs them independently.\n",
    "- Finish with a short summary of what you changed and why.\n",
  ].join("");
}

export function revisionPrompt(
  task: ResolvedContract,
  review: ReviewResult,
  verificationSummary: string,
): string {
  const findings = review.findings.map((f) =>
    `${f.priority} ${f.file}${f.line ? `:${f.line}` : ""}: ${f.problem} -> ${f.requiredChange}`
  );
  return implementationPrompt(task) + "\n" + [
    "# Mandatory revision\n",
    `The reviewer asked for changes.\n\n${review.summary}\n\n`,
    list("Findings to fix", findings),
    list("Verification gaps", review.verificationGaps),
    `## Independent verification result\n${verificationSummary}\n`,
  ].join("");
}

export function selfReviewPrompt(
  task: ResolvedContract,
  facts: { diffSha256: string; changedFiles: string[]; diffStat: string; verificationSummary: string },
): string {
  return [
    `# Self-review\nrunId: ${task.runId}\ndiffSha256: ${facts.diffSha256}\n\n`,
    "Re-read your own diff with read-only tools and report, as ONE JSON object and nothing else, ",
    "per acceptance criterion whether it is met, uncertain or unmet, with file and line evidence. ",
    "Echo the diffSha256 above exactly. Fields: schemaVersion (1), runId, diffSha256, acceptanceEvidence ",
    "[{criterion, status, evidence:[{file, line, note}]}], findings [{priority P0-P3, file, line, problem, ",
    "requiredChange}], uncertainCriteria [], summary. Cite every changed hunk under the criterion it ",
    "serves, by a line inside the hunk (new-file line numbers): a hunk nobody cites is shown to the reviewer ",
    "anyway, and a citation without a line covers nothing.\n\n",
    `## Goal\n${task.goal}\n\n`,
    list("Acceptance criteria", task.acceptanceCriteria),
    list("Locked paths (must be unchanged)", task.lockedPaths),
    list("Changed files", facts.changedFiles),
    `## Diff stat\n${facts.diffStat}\n\n`,
    `## Independent verification result (ground truth)\n${facts.verificationSummary}\n`,
  ].join("");
}
