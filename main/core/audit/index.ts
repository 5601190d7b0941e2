// The audit job's public face: what other job folders and the rpc binding may import.
export { AuditLog, foldRuns, type AuditEntry, type AuditFigure } from './auditLog';
export { loadSummary } from './loadSummary';
