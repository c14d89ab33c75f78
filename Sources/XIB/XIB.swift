// Module `XIB`: see Package.swift for its role.
