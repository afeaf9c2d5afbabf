/**
 * How hard a task is, for routing. A declared `difficulty` wins. Otherwise
 * risk and domain carry the decision and size signals add at most +2, so a
 * long, careful contract does not route itself to the expensive model.
 */
import type { TaskContract } from "../schemas/task_contract.ts";

export type Difficulty = "low" | "medium" | "high";
export type Domain = NonNullable<TaskContract["domain"]>;

/** The fields routing reads; doctor may route before a full contract exists. */
export type RoutableTask =
  & Pick<
    TaskContract,
    "goal" | "risk" | "difficulty" | "domain" | "acceptanceCriteria" | "verification" | "constraints"
  >
  & { requiredCapabilities?: TaskContract["requiredCapabilities"] };

export interface DifficultyDecision {
  difficulty: Difficulty;
  difficultySource: "explicit" | "inferred";
  /** The inferred score, also computed when the difficulty was declared. */
  score: number;
  /** What added to the score, as `name+points`. */
  signals: string[];
  domain: Domain | null;
  domainSource: "explicit" | "goal" | "none";
}

/** Size can move a task up one band at most: low (0-1) to medium, never medium to high. */
export const SIZE_CAP = 2;
/** score < 2 is low, 2-4 medium, >= 5 high. */
export const MEDIUM_AT = 2;
export const HIGH_AT = 5;
/** High risk alone is a high-difficulty task. */
const RISK_POINTS = { low: 0, medium: 1, high: HIGH_AT } as const;
/** Domains where a medium-risk change is already a medium task. */
const HEAVY_DOMAINS: ReadonlySet<Domain> = new Set(["backend", "systems", "algorithm"]);

/** Keyword hints, tried in this order, when the contract names no domain. */
const DOMAIN_HINTS: [Domain, RegExp][] = [
  ["frontend", /\b(ui|css|html|react|vue|svelte|component|layout|frontend|browser|dom)\b/i],
  ["backend", /\b(api|endpoint|server|database|sql|http|backend|handler|route|auth)\b/i],
  ["systems", /\b(kernel|memory|thread|concurren\w*|process|syscall|driver|systems?|performance)\b/i],
  ["algorithm", /\b(algorithm|sort\w*|graph|parse\w*|tree|search|dynamic programming|complexity)\b/i],
  ["refactor", /\b(refactor\w*|rename|extract|clean ?up|reorgani[sz]e|move)\b/i],
  ["docs", /\b(docs?|documentation|readme|comment|changelog)\b/i],
];

export function inferDomain(task: Pick<RoutableTask, "goal" | "domain">): {
  domain: Domain | null;
  domainSource: DifficultyDecision["domainSource"];
} {
  if (task.domain) return { domain: task.domain, domainSource: "explicit" };
  const hit = DOMAIN_HINTS.find(([, pattern]) => pattern.test(task.goal));
  return hit ? { domain: hit[0], domainSource: "goal" } : { domain: null, domainSource: "none" };
}

function sizeSignals(task: RoutableTask): [string, number][] {
  const out: [string, number][] = [];
  const acceptance = task.acceptanceCriteria.length;
  if (acceptance >= 8) out.push(["acceptance>=8", 2]);
  else if (acceptance >= 4) out.push(["acceptance>=4", 1]);
  if (task.verification.length >= 3) out.push(["verification>=3", 1]);
  if (task.constraints.length >= 5) out.push(["constraints>=5", 1]);
  if (task.requiredCapabilities?.includes("tool-use")) out.push(["tool-use", 1]);
  return out;
}

export function bandOf(score: number): Difficulty {
  return score >= HIGH_AT ? "high" : score >= MEDIUM_AT ? "medium" : "low";
}

export function decideDifficulty(task: RoutableTask): DifficultyDecision {
  const { domain, domainSource } = inferDomain(task);
  const signals: string[] = [];
  let score = RISK_POINTS[task.risk];
  if (score > 0) signals.push(`risk:${task.risk}+${score}`);
  if (domain && HEAVY_DOMAINS.has(domain)) {
    score += 1;
    signals.push(`domain:${domain}+1`);
  }
  const size = sizeSignals(task);
  const raw = size.reduce((sum, [, points]) => sum + points, 0);
  for (const [name, points] of size) signals.push(`${name}+${points}`);
  if (raw > SIZE_CAP) signals.push(`size capped at +${SIZE_CAP}`);
  score += Math.min(raw, SIZE_CAP);
  if (task.difficulty) {
    return {
      difficulty: task.difficulty,
      difficultySource: "explicit",
      score,
      signals,
      domain,
      domainSource,
    };
  }
  return { difficulty: bandOf(score), difficultySource: "inferred", score, signals, domain, domainSource };
}
