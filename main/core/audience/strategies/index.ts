import type { StrategyName } from '../../../../app/schemas/audience';
import type { Strategy } from '../strategy';
import { bitmapLua } from './bitmapLua';
import { bitmapPipeline } from './bitmapPipeline';
import { sets } from './sets';
import { zunionstore } from './zunionstore';

export const STRATEGIES: Record<StrategyName, Strategy> = {
  'bitmap-lua': bitmapLua,
  'bitmap-pipeline': bitmapPipeline,
  sets,
  zunionstore,
};
