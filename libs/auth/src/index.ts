export * from './token';
export * from './guards';
