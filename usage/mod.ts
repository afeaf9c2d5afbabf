/** Parent meters, worker usage and cost, savings, the cohort, and the report's views. */
export * from "./parent/usage.ts";
export * from "./parent/meter.ts";
export * from "./parent/section.ts";
export * from "./parent/snapshot_file.ts";
export * from "./pricing.ts";
export * from "./savings.ts";
export * from "./worker_usage.ts";
export * from "./cohort.ts";
export * from "./metrics.ts";
export * from "./format.ts";
export * from "./report_text.ts";
