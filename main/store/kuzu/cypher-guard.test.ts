import { describe, expect, it } from 'vitest';
import { guardCypher } from './cypher-guard.js';

const refused = (q: string) => {
  try {
    guardCypher(q);
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return 'allowed';
};

describe('guardCypher', () => {
  it.each([
    'CREATE (n:Entity {id: "x"})',
    'MATCH (n) MERGE (n)-[:X]->(n)',
    'MATCH (n:Entity) SET n.name = "x"',
    'MATCH (n:Entity) DELETE n',
    'MATCH (n:Entity) DETACH DELETE n',
    'MATCH (n:Entity) REMOVE n.name',
    'DROP TABLE Entity',
    'ALTER TABLE Entity ADD x INT64',
    "COPY Entity FROM '/tmp/x.csv'",
    "COPY (MATCH (n) RETURN n) TO '/tmp/out.csv'",
    "LOAD FROM '/etc/passwd' RETURN *",
    'INSTALL httpfs',
    'LOAD EXTENSION fts',
    "ATTACH '/tmp/other.kuzu' AS o",
    'USE o',
    "EXPORT DATABASE '/tmp/x'",
    "IMPORT DATABASE '/tmp/x'",
    'CHECKPOINT',
    'BEGIN TRANSACTION',
    'COMMIT',
    "CALL CREATE_FTS_INDEX('Entity', 'i', ['body'])",
    "CALL DROP_FTS_INDEX('Entity', 'fts_body')",
    "CALL project_graph('g', ['Entity'], ['LINKS_TO'])",
    'CALL threads = 1',
    'match (n) return n; create (m:Entity {id: "y"})',
    'MATCH (n) RETURN n /* unterminated',
    "MATCH (n) WHERE n.name = 'unterminated RETURN n",
    '   ',
  ])('refuses %s', (q) => {
    expect(refused(q)).toBe('cypher-refused');
  });

  it.each([
    'MATCH (n:Entity)-[:MEMBER_OF]->(f) RETURN n.name, f.name',
    "MATCH (n:Entity) WHERE n.body CONTAINS 'CREATE a SET of DELETE' RETURN n.name",
    'MATCH (n:Entity) // SET in a comment\nRETURN n.name',
    'MATCH (n:Entity) /* DROP TABLE */ RETURN n.name',
    'MATCH (n:Entity) RETURN n.name AS `create`',
    'MATCH (n:Entity) RETURN n.set, $delete',
    "CALL QUERY_FTS_INDEX('Entity', 'fts_body', 'dragon') RETURN node.name, score",
    'CALL show_tables() RETURN *',
    "CALL table_info('Entity') RETURN *",
    'MATCH (a)--(b) RETURN count(*)',
    "MATCH (n) WHERE n.name = 'it\\'s' RETURN n",
  ])('allows %s', (q) => {
    expect(refused(q)).toBe('allowed');
  });

  it('names the offending keyword or procedure in the message', () => {
    expect(() => guardCypher('MATCH (n) SET n.x = 1')).toThrow(/SET writes or loads/);
    expect(() => guardCypher("CALL create_fts_index('Entity','i',['body'])")).toThrow(/CALL create_fts_index is not a read-only procedure/);
  });
});
