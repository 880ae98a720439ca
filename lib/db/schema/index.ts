export * from './files';
export * from './api-keys';
export * from './events';
export * from './system';
export * from './extractions';
export * from './workflows';
export * from './knowledge-bases';
export * from './webhooks';
