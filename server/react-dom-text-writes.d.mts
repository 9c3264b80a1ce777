// Types of server/react-dom-text-writes.mjs (plain JavaScript, like the module hooks beside it).
export declare const REACT_DOM_TEXT_WRITES: unique symbol;
export declare const TEXT_WRITES_SOURCE: string;
export declare function withTextWrites(source: string): string;
export declare function installTextWrites(): void;
