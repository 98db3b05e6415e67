// `@geoaccount/signing/portable`: what a client needs to sign, with no Node API (browsers too).
export * from './canonical';
export * from './demo-app';
