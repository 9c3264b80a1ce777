// Types of server/react-router-production.mjs (plain JavaScript: Node loads module hooks without tsx).
export declare const REACT_ROUTER_MEMOS: unique symbol;
export declare const MEMOIZED: string[];
export declare const MEMO_SOURCE: string;
export declare function withMemos(source: string): string;
