// The pubsub job's public face: what other job folders and the rpc binding may import.
export type { CheckName } from './overview';
export { profileOverview, publishOn, subscribedText, subscriptionNames } from './profilePubSub';
export type { Published } from './publish';
export { PubSubHub, type PubSubHubOptions, type PubSubNames, type PubSubViewer } from './pubsubHub';
export { PUBSUB_CONNECTION_PREFIX, pubsubPlanner } from './pubsubPlan';
export { shownBytes, shownMessage } from './shownMessage';
export { namesText } from './subscriberNode';
