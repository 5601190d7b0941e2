// The clients job's public face: what other job folders and the rpc binding may import.
export { ClientsService, type KilledClient } from './clientsService';
export { profileClients } from './profileClients';
