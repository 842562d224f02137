// CPU time of the local `workerd` runtime, read from Linux's per-thread scheduler statistics
// (/proc/<pid>/task/<tid>/schedstat, nanoseconds on the CPU): with one request in flight at a
// time, the difference around a request is what workerd spent while answering it, all threads
// (the Worker, its Durable Objects, D1's SQLite) together. Linux only; elsewhere nothing is read.
import { existsSync, readdirSync, readFileSync } from "node:fs";

const parentOf = (pid: string): string | undefined => {
  try {
    // The command name is in parentheses and may contain spaces: the fields after it are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
  } catch {
    return undefined;
  }
};

const nameOf = (pid: string) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
};

/** The workerd processes started by this process (wrangler runs them as descendants). */
export function workerdProcesses(root = String(process.pid)): string[] {
  if (!existsSync("/proc")) return [];
  const pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  const children = new Map<string, string[]>();
  for (const pid of pids) {
    const parent = parentOf(pid);
    if (parent) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const out: string[] = [];
  const walk = (pid: string) => {
    for (const child of children.get(pid) ?? []) {
      if (nameOf(child) === "workerd") out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}

/** Nanoseconds on the CPU of every thread of the processes, now. */
export function cpuNanos(pids: string[]): number {
  let total = 0;
  for (const pid of pids) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        /* thread ended */
      }
    }
  }
  return total;
}
