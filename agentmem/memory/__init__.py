"""Long-term memory: claims, candidate extraction, formation and consolidation.

Extractors only propose :class:`~agentmem.memory.claims.MemoryCandidate` objects; the formation
service is the one writer of beliefs.
"""
