// Module `ArchiveTesting`: see Package.swift for its role.
