import { describe, expect, it } from "vitest";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { merkleLeafHash, merkleNodeHash, merkleRoot, merkleRootFromProof, merkleTree, verifyMerkleProof } from "./merkle";

const leaves = (n: number) => Array.from({ length: n }, (_, i) => merkleLeafHash(`leaf ${i}`));
const flip = (hex: string) => (hex[0] === "0" ? "1" : "0") + hex.slice(1);
const h = (...parts: Uint8Array[]) => bytesToHex(sha256(Uint8Array.from(parts.flatMap((p) => [...p]))));

describe("the Merkle tree", () => {
  it("hashes leaves with a 0x00 prefix and inner nodes with 0x01, so neither can pass for the other", () => {
    expect(merkleLeafHash("abc")).toBe(h(Uint8Array.of(0), utf8ToBytes("abc")));
    const [a, b] = leaves(2) as [string, string];
    expect(merkleNodeHash(a, b)).toBe(h(Uint8Array.of(1), hexToBytes(a), hexToBytes(b)));
    // An inner node's bytes given as a leaf do not hash to the node.
    expect(merkleLeafHash(Uint8Array.from([...hexToBytes(a), ...hexToBytes(b)]))).not.toBe(merkleNodeHash(a, b));
  });

  it("has these roots for 1, 2, 3 and 5 leaves: the last node of an odd level is promoted, not duplicated", () => {
    const [a, b, c, d, e] = leaves(5) as [string, string, string, string, string];
    const n = merkleNodeHash;
    expect(merkleRoot([a])).toBe(a);
    expect(merkleRoot([a, b])).toBe(n(a, b));
    expect(merkleRoot([a, b, c])).toBe(n(n(a, b), c));
    expect(merkleRoot([a, b, c, d, e])).toBe(n(n(n(a, b), n(c, d)), e));
    // Duplication would make [a, b, c] and [a, b, c, c] share a root; promotion does not.
    expect(merkleRoot([a, b, c, c])).not.toBe(merkleRoot([a, b, c]));
    expect(() => merkleRoot([])).toThrow();
  });

  it("gives the same root on every run and a different one for any changed, moved or missing leaf", () => {
    const ls = leaves(30);
    const root = merkleRoot(ls);
    expect(root).toMatch(/^[0-9a-f]{64}$/);
    expect(merkleRoot(leaves(30))).toBe(root);
    expect(merkleRoot(ls.map((l, i) => (i === 17 ? flip(l) : l)))).not.toBe(root);
    expect(merkleRoot([ls[1]!, ls[0]!, ...ls.slice(2)])).not.toBe(root);
    expect(merkleRoot(ls.slice(0, 29))).not.toBe(root);
  });

  for (const n of [1, 2, 3, 5, 30]) {
    it(`${n} leaves: every proof verifies, and a wrong leaf, index or sibling does not`, () => {
      const ls = leaves(n);
      const tree = merkleTree(ls);
      expect(tree.root).toBe(merkleRoot(ls));
      expect(tree.leafCount).toBe(n);
      for (let i = 0; i < n; i++) {
        const proof = tree.proof(i);
        expect(proof.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)));
        expect(verifyMerkleProof(ls[i]!, i, n, proof, tree.root)).toBe(true);
        expect(verifyMerkleProof(flip(ls[i]!), i, n, proof, tree.root)).toBe(false);
        // Another leaf's hash at this place, or this leaf at another place, does not verify.
        if (n > 1) {
          const j = (i + 1) % n;
          expect(verifyMerkleProof(ls[j]!, i, n, proof, tree.root)).toBe(false);
          expect(verifyMerkleProof(ls[i]!, j, n, proof, tree.root)).toBe(false);
        }
        for (let k = 0; k < proof.length; k++) {
          const wrong = proof.map((s, m) => (m === k ? flip(s) : s));
          expect(verifyMerkleProof(ls[i]!, i, n, wrong, tree.root)).toBe(false);
        }
        // A sibling too many or too few is no proof at all.
        expect(merkleRootFromProof(ls[i]!, i, n, [...proof, ls[0]!])).toBeNull();
        if (proof.length > 0) expect(merkleRootFromProof(ls[i]!, i, n, proof.slice(1))).toBeNull();
      }
      expect(merkleRootFromProof(ls[0]!, n, n, tree.proof(0))).toBeNull();
      expect(merkleRootFromProof(ls[0]!, -1, n, tree.proof(0))).toBeNull();
      expect(merkleRootFromProof(ls[0]!, 0, n, ["not a hash"])).toBeNull();
      expect(() => tree.proof(n)).toThrow();
    });
  }

  it("a 30-leaf proof names exactly the siblings on the path, the promoted level skipped", () => {
    const ls = leaves(30);
    const tree = merkleTree(ls);
    // Levels of 30, 15, 8, 4, 2 and 1 nodes: leaf 0 has a sibling on each of the five below the root.
    expect(tree.proof(0)).toHaveLength(5);
    expect(tree.proof(0)[0]).toBe(ls[1]);
    // Leaves 28 and 29 meet in node 14, the last of 15, which is promoted as it is: one sibling fewer.
    expect(tree.proof(29)).toHaveLength(4);
    expect(tree.proof(29)[0]).toBe(ls[28]);
    expect(tree.proof(28)[0]).toBe(ls[29]);
  });
});
