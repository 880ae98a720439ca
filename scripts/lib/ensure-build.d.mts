export declare const ROOT: string;
export declare function buildIsFresh(): boolean;
export declare function ensureBuild(options?: { quiet?: boolean }): void;
