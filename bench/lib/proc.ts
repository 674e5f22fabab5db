/** Reading CPU time and memory of processes from /proc (Linux), and describing the machine. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

let clockTicks: number | undefined;

/** Clock ticks per second (`getconf CLK_TCK`), the unit of utime/stime in /proc/<pid>/stat. */
export function clkTck(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** utime + stime of a process, in clock ticks; undefined when the process is gone. */
export function processTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces: split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name, field 3 (state) is index 0, so utime (14) is index 11 and stime (15) index 12.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Sum of CPU ticks over several processes; pids missing at the end count as what they had at the start. */
export function ticksOf(pids: readonly number[]): Map<number, number> {
  const result = new Map<number, number>();
  for (const pid of pids) {
    const ticks = processTicks(pid);
    if (ticks !== undefined) result.set(pid, ticks);
  }
  return result;
}

/** CPU microseconds spent between two samples (a pid first seen in `after` counts from zero). */
export function cpuMicrosBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, end] of after) ticks += end - (before.get(pid) ?? 0);
  return (ticks * 1e6) / clkTck();
}

/** Resident set size in bytes, from /proc/<pid>/status. */
export function rssBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export interface MachineCpu {
  busy: number;
  total: number;
}

/** Machine-wide CPU counters from /proc/stat (all cores), to tell how busy the machine was during a run. */
export function machineCpu(): MachineCpu {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  const total = values.slice(0, 8).reduce((sum, v) => sum + v, 0);
  return { busy: total - idle, total };
}

/** Share of all cores that was busy between two samples, 0..1. */
export function machineBusyShare(before: MachineCpu, after: MachineCpu): number {
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : 0;
}

export interface MachineInfo {
  cores: number;
  cpu_model: string;
  memory_gib: number;
  node: string;
  kernel: string;
  hostname: string;
  postgres?: string;
  redis?: string;
}

export function machineInfo(): MachineInfo {
  let model = os.cpus()[0]?.model ?? 'unknown';
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1]) model = match[1].trim();
  } catch {
    // keep os.cpus()
  }
  return {
    cores: os.cpus().length,
    cpu_model: model,
    memory_gib: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: os.release(),
    hostname: os.hostname(),
  };
}
