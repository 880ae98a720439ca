// CPU accounting for the indexing runs: this process, the database's backends and the rest of the
// machine, read from Linux /proc.
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '@/lib/db/client';

export interface CpuSnapshot {
  node: NodeJS.CpuUsage;
  /** CPU ticks of this database's server processes by pid. */
  backends: Map<number, number>;
  machineBusy: number;
  machineTotal: number;
}

const TICKS_PER_SECOND = 100;

/** utime + stime of a process in clock ticks, 0 once it is gone. */
function processTicks(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** CPU used so far by this process, by the database's backends and by the whole machine (Linux /proc). */
export async function cpuSnapshot(db: Db): Promise<CpuSnapshot> {
  const rows = await queryRows<{ pid: number }>(db, sql`select pid from pg_stat_activity where datname = current_database()`);
  const backends = new Map(rows.map((r) => [Number(r.pid), processTicks(Number(r.pid))]));
  let machineBusy = 0;
  let machineTotal = 0;
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    machineTotal = cpu.reduce((a, b) => a + b, 0);
    machineBusy = machineTotal - cpu[3] - cpu[4];
  } catch {
    // Not Linux: machine figures stay 0.
  }
  return { node: process.cpuUsage(), backends, machineBusy, machineTotal };
}

/** CPU seconds between two snapshots: this process, the database backends, everything else on the machine. */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): { node: number; postgres: number; others: number } {
  const nodeUsage = process.cpuUsage(before.node);
  const node = (nodeUsage.user + nodeUsage.system) / 1e6;
  let ticks = 0;
  for (const [pid, now] of after.backends) ticks += now - (before.backends.get(pid) ?? 0);
  const postgres = ticks / TICKS_PER_SECOND;
  const machine = (after.machineBusy - before.machineBusy) / TICKS_PER_SECOND;
  return { node, postgres, others: Math.max(0, machine - node - postgres) };
}
