// Module `KeyedArchive`: see Package.swift for its role.
