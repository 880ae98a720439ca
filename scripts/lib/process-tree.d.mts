export interface ProcessStats {
  pid: number;
  /** CPU time, user and system, in clock ticks (hundredths of a second). */
  ticks: number;
  rssMb: number;
}
export declare function processTree(root: number): ProcessStats[];
