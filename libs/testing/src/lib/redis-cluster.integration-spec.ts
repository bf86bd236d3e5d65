import { clusterProbe, startRedisCluster, type OwnRedisCluster } from './redis-cluster';

describe('startRedisCluster', () => {
  let cluster: OwnRedisCluster;

  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('serves every slot from 3 masters with a replica each, and promotes a replica when its master is killed', async () => {
    expect(cluster.nodes).toHaveLength(6);
    expect(cluster.nodes.filter((n) => n.role === 'master')).toHaveLength(3);
    expect(cluster.seeds.split(',')).toHaveLength(6);
    expect(cluster.seeds).not.toContain(':6379');

    const client = clusterProbe(cluster.seeds);
    try {
      await client.set('{probe}:a', '1');
      const master = await cluster.masterOf('{probe}:a');
      // The write must reach the replica before the master dies, or failover may lose it.
      await client.call('WAIT', '1', '1000');
      await cluster.kill(master.port);
      expect(cluster.nodes.find((n) => n.port === master.port)?.alive).toBe(false);
      await cluster.waitUntilHealthy();
      const promoted = await cluster.masterOf('{probe}:a');
      expect(promoted.port).not.toBe(master.port);
      expect(promoted.role).toBe('master');
      expect(await client.get('{probe}:a')).toBe('1');
    } finally {
      client.disconnect();
    }
  }, 60_000);
});
