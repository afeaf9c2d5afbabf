import { queueContract } from "../tests/fleet/queue_contract.ts";
import { memoryQueue } from "./memory.ts";

queueContract("local", (leaseMs) => Promise.resolve(memoryQueue({ leaseMs })));
