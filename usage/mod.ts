/** Parent meters, worker usage and cost, savings, the cohort, and the report's views. */
export * from "./parent_usage.ts";
export * from "./parent_meter.ts";
export * from "./parent_section.ts";
export * from "./snapshot_file.ts";
export * from "./pricing.ts";
export * from "./savings.ts";
export * from "./worker_usage.ts";
export * from "./cohort.ts";
export * from "./metrics.ts";
export * from "./format.ts";
export * from "./report_text.ts";
