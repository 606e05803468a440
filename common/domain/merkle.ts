// A binary Merkle tree over SHA-256, the shape of the per-question fairness commitment
// (docs/decisions/015-per-question-commitment.md). Pure and synchronous (@noble/hashes), so the
// same code builds the tree in the tournament room and checks proofs in the browser.
//
// - A leaf's hash is SHA-256(0x00 || data), an inner node's SHA-256(0x01 || left || right): a
//   leaf can never be passed off as an inner node or the other way round (second preimages).
// - Levels are built left to right; a level with an odd count carries its last node up
//   unchanged (promoted, never duplicated: with duplication [a, b, c] and [a, b, c, c] would
//   share a root).
// - A proof is the list of sibling hashes from the leaf up. Which side each sibling is on, and
//   where a node is promoted, follow from the leaf's index and the leaf count, so a proof cannot
//   place a leaf anywhere but at its index. The root alone does not fix the count (a proof can
//   fit trees of several sizes): whoever needs it fixed puts it in the leaves, as the fairness
//   leaves do.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";

const LEAF = Uint8Array.of(0x00);
const NODE = Uint8Array.of(0x01);
const HEX_HASH = /^[0-9a-f]{64}$/;

function prefixed(prefix: Uint8Array, ...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(1 + parts.reduce((n, p) => n + p.length, 0));
  out.set(prefix, 0);
  let at = 1;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Lowercase hex SHA-256(0x00 || data); a string is hashed as its UTF-8 bytes. */
export function merkleLeafHash(data: string | Uint8Array): string {
  return bytesToHex(sha256(prefixed(LEAF, typeof data === "string" ? utf8ToBytes(data) : data)));
}

/** Lowercase hex SHA-256(0x01 || left || right) of two lowercase hex hashes. */
export function merkleNodeHash(left: string, right: string): string {
  return bytesToHex(sha256(prefixed(NODE, hexToBytes(left), hexToBytes(right))));
}

/** Every level of the tree, leaves first, root last. */
function levels(leafHashes: readonly string[]): string[][] {
  if (leafHashes.length === 0) throw new Error("a Merkle tree needs at least one leaf");
  const all: string[][] = [[...leafHashes]];
  while (all[all.length - 1]!.length > 1) {
    const below = all[all.length - 1]!;
    const above: string[] = [];
    for (let i = 0; i < below.length; i += 2) above.push(i + 1 < below.length ? merkleNodeHash(below[i]!, below[i + 1]!) : below[i]!);
    all.push(above);
  }
  return all;
}

export interface MerkleTree {
  root: string;
  leafCount: number;
  /** The sibling hashes from the leaf at `index` up to the root. */
  proof(index: number): string[];
}

/** Builds the tree once; its proofs are then read off the stored levels. */
export function merkleTree(leafHashes: readonly string[]): MerkleTree {
  const tree = levels(leafHashes);
  return {
    root: tree[tree.length - 1]![0]!,
    leafCount: leafHashes.length,
    proof(index: number): string[] {
      if (!Number.isInteger(index) || index < 0 || index >= leafHashes.length) throw new Error(`no leaf ${index}`);
      const siblings: string[] = [];
      let i = index;
      for (const level of tree.slice(0, -1)) {
        const sibling = i % 2 === 1 ? i - 1 : i + 1;
        if (sibling < level.length) siblings.push(level[sibling]!);
        i = Math.floor(i / 2);
      }
      return siblings;
    },
  };
}

export const merkleRoot = (leafHashes: readonly string[]): string => merkleTree(leafHashes).root;

/**
 * The root that a leaf hash and its proof lead to, at this index of a tree of this many leaves;
 * null when the proof cannot belong there (index out of range, too few or too many siblings,
 * a sibling that is not a hash).
 */
export function merkleRootFromProof(leafHash: string, index: number, leafCount: number, proof: readonly string[]): string | null {
  if (!Number.isInteger(index) || !Number.isInteger(leafCount) || index < 0 || index >= leafCount) return null;
  if (!HEX_HASH.test(leafHash) || !proof.every((s) => HEX_HASH.test(s))) return null;
  let hash = leafHash;
  let i = index;
  let size = leafCount;
  let used = 0;
  while (size > 1) {
    if (i % 2 === 1) {
      if (used >= proof.length) return null;
      hash = merkleNodeHash(proof[used++]!, hash);
    } else if (i + 1 < size) {
      if (used >= proof.length) return null;
      hash = merkleNodeHash(hash, proof[used++]!);
    } // else: the last node of an odd level, promoted as it is
    i = Math.floor(i / 2);
    size = Math.ceil(size / 2);
  }
  return used === proof.length ? hash : null;
}

/** Whether the proof leads from this leaf, at this index of a tree of this many leaves, to the root. */
export const verifyMerkleProof = (leafHash: string, index: number, leafCount: number, proof: readonly string[], root: string): boolean =>
  merkleRootFromProof(leafHash, index, leafCount, proof) === root;
